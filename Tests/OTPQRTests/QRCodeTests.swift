import OTPQR
import Testing

@Suite("QR code matrix")
struct QRCodeTests {
    @Test("a short text encodes to a version 1 symbol")
    func versionOne() throws {
        let code = try QRCode(encoding: "hello")
        #expect(code.size == 21)
        #expect(code.version == 1)
    }
}
