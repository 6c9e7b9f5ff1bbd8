import Foundation
import OTPQRScan
import OTPTestUtilities
import Testing

/// Other projects' test images (`../shared/importer-samples/qr-image/`), read as an importer will
/// read them.
@Suite("Sample images")
struct SampleImageTests {
    struct Expectation: Decodable {
        let qrText: String?
        let expectError: String?

        enum CodingKeys: String, CodingKey {
            case qrText = "qr_text_as_decoded_by_zbarimg_0_23_92"
            case expectError = "expect_error"
        }
    }

    @Test("Google Authenticator export (extract_otp_secrets) scans to the text its expected.json records")
    func googleAuthenticatorExport() throws {
        let expectation = try ImporterSamples.decode(Expectation.self, from: "qr-image/test_googleauth_export.png.expected.json")
        let text = try #require(expectation.qrText, "the expected.json records no QR text")
        let codes = try QRScanner.codes(inImage: ImporterSamples.data("qr-image/test_googleauth_export.png"))
        #expect(codes == [Array(text.utf8)])
    }

    // Its expected.json records accounts but not the QR text, so zbarimg, run on its own, says
    // what the code holds.
    @Test("Google Authenticator export screenshot (google-authenticator-export) scans to what zbarimg reads")
    func demoExport() async throws {
        try ImporterSamples.requireRoot()
        let path = ImporterSamples.url("qr-image/demo_export.png").path
        let run = try await ProcessRunner.run(ExternalTool.zbarimg.path(), ["--raw", "-q", "--oneshot", "-Sbinary", path])
        try #require(run.status == 0, "zbarimg could not read \(path): \(run)")
        let codes = try QRScanner.codes(inImageFile: path)
        #expect(codes == [run.standardOutput])
        #expect(codes.first?.starts(with: "otpauth-migration://offline?data=".utf8) == true)
    }

    @Test("A photo without a QR code gives the no-QR-code error")
    func photoWithoutCode() throws {
        let expectation = try ImporterSamples.decode(Expectation.self, from: "qr-image/not_a_qr_code.jpg.expected.json")
        #expect(expectation.expectError == "no QR code found")
        let image = try ImporterSamples.data("qr-image/not_a_qr_code.jpg")
        #expect(throws: QRScanError.noQRCode) { try QRScanner.codes(inImage: image) }
        #expect(QRScanError.noQRCode.description.hasPrefix("no QR code found in the image"))
    }

    @Test("A QR code that is not an OTP URI is returned as it is: refusing it is the importer's job")
    func codeWithoutOTP() throws {
        let codes = try QRScanner.codes(inImageFile: ImporterSamples.url("qr-image/qr_but_without_otp.png").path)
        #expect(codes == [Array("NOT A otpauth-migration:// URL".utf8)])
    }

    @Test("The format comes from the bytes: each sample scans the same under the other format's name")
    func formatFromContent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let png = try ImporterSamples.data("qr-image/qr_but_without_otp.png")
        try png.write(to: URL(fileURLWithPath: directory.file("photo.jpg")))
        #expect(try QRScanner.codes(inImageFile: directory.file("photo.jpg")) == [Array("NOT A otpauth-migration:// URL".utf8)])
        let jpeg = try ImporterSamples.data("qr-image/not_a_qr_code.jpg")
        try jpeg.write(to: URL(fileURLWithPath: directory.file("code.png")))
        #expect(throws: QRScanError.noQRCode) { try QRScanner.codes(inImageFile: directory.file("code.png")) }
    }
}
