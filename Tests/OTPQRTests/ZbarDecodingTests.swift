import Foundation
import OTPCore
import OTPQR
import OTPTestUtilities
import OTPURI
import Testing

/// Renders QR codes to PNG (libpng) and SVG (rasterized by rsvg-convert) and decodes them with
/// zbarimg, an implementation nobody here wrote: the decoded bytes must equal the input exactly.
@Suite("Decoding with zbarimg")
struct ZbarDecodingTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let errorCorrection: QRCode.ErrorCorrection
        var testDescription: String { name }
    }

    static let samples: [Sample] = {
        let secret = try! OTPSecret(base32: "HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ")
        let everyParameter = try! OTPAuthURI(
            kind: .hotp, issuer: "ACME Co: EU & Friends", accountName: "jürgen+mfa@büro.example",
            secret: secret, algorithm: .sha512, digits: 8, period: 60, counter: 12345,
            additionalParameters: [.init(name: "image", value: "https://example.com/logo.png?size=64&x=#1")])
        // Enough unknown-parameter payload to bring the URI close to version 40's capacity at M.
        let filler = String(repeating: "abcdefghij", count: 216)
        let nearLimit = try! OTPAuthURI(
            issuer: "Example", accountName: "alice@example.com", secret: secret,
            additionalParameters: [.init(name: "note", value: filler)])
        return [
            Sample(name: "short", text: "otpauth://totp/a?secret=JBSWY3DPEHPK3PXP", errorCorrection: .medium),
            Sample(
                name: "Google's example", text: "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
                errorCorrection: .medium),
            Sample(
                name: "Firebase example",
                text: OTPAuthURI.firebaseQRCodeURL(
                    sharedSecretKey: "key123", accountName: "user@myawesomeapp", issuer: "myawesomeapp",
                    hashingAlgorithm: "SHA1", codeLength: 6), errorCorrection: .medium),
            Sample(name: "every parameter, unicode escaped", text: everyParameter.string, errorCorrection: .medium),
            Sample(name: "every parameter at L", text: everyParameter.string, errorCorrection: .low),
            Sample(name: "every parameter at Q", text: everyParameter.string, errorCorrection: .quartile),
            Sample(name: "every parameter at H", text: everyParameter.string, errorCorrection: .high),
            Sample(name: "raw unicode text", text: "Bürö: jürgen 😀 中文 ñ é", errorCorrection: .medium),
            Sample(name: "near the version limit (\(nearLimit.string.utf8.count) bytes)", text: nearLimit.string, errorCorrection: .medium),
        ]
    }()

    /// The raw bytes of the symbol's data, as `zbarimg --raw -q -Sbinary` reads them from a PNG
    /// file (binary mode, so zbar does not guess a character set).
    static func zbarDecode(_ path: String) async throws -> [UInt8] {
        let run = try await ProcessRunner.run(ExternalTool.zbarimg.path(), ["--raw", "-q", "-Sbinary", path])
        try #require(run.status == 0, "zbarimg could not decode \(path): \(run)")
        return run.standardOutput
    }

    @Test("PNG decodes to exactly the input", arguments: samples)
    func png(_ sample: Sample) async throws {
        let code = try QRCode(encoding: sample.text, errorCorrection: sample.errorCorrection)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("code.png")
        let scale = code.size > 100 ? 4 : 6
        try Data(code.pngData(scale: scale)).write(to: URL(fileURLWithPath: file))
        let decoded = try await Self.zbarDecode(file)
        #expect(decoded == Array(sample.text.utf8), "version \(code.version)")
        if sample.name.hasPrefix("near the version limit") { #expect(code.version == 40) }
    }

    @Test("PNG header and dimensions follow scale and margin")
    func pngGeometry() throws {
        let code = try QRCode(encoding: "otpauth://totp/a?secret=JBSWY3DPEHPK3PXP")
        for (scale, margin) in [(1, 0), (3, 2), (10, 4)] {
            let png = try code.pngData(scale: scale, margin: margin)
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == (code.size + 2 * margin) * scale)
            #expect(height == width)
        }
    }

    @Test("SVG rasterized by rsvg-convert decodes to exactly the input", arguments: samples.prefix(4))
    func svg(_ sample: Sample) async throws {
        let code = try QRCode(encoding: sample.text, errorCorrection: sample.errorCorrection)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let svgFile = directory.file("code.svg")
        let pngFile = directory.file("code.png")
        try code.svgString(moduleSize: 6).write(toFile: svgFile, atomically: true, encoding: .utf8)
        let rasterized = try await ProcessRunner.run(ExternalTool.rsvgConvert.path(), ["-o", pngFile, svgFile])
        try #require(rasterized.status == 0, "rsvg-convert failed: \(rasterized)")
        #expect(try await Self.zbarDecode(pngFile) == Array(sample.text.utf8))
    }

    @Test("SVG path covers exactly the dark modules", arguments: samples)
    func svgGeometry(_ sample: Sample) throws {
        let code = try QRCode(encoding: sample.text, errorCorrection: sample.errorCorrection)
        let margin = 2
        let svg = try code.svgString(moduleSize: 3, margin: margin)
        let extent = code.size + 2 * margin
        #expect(svg.contains("viewBox=\"0 0 \(extent) \(extent)\""))
        #expect(svg.contains("width=\"\(extent * 3)\""))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        let paths = svg.components(separatedBy: "<path ")
        #expect(paths.count == 2, "one path")
        let data = try #require(paths[1].components(separatedBy: " d=\"").last?.components(separatedBy: "\"").first)
        var painted = [[Bool]](repeating: [Bool](repeating: false, count: extent), count: extent)
        for command in data.split(separator: "M") {
            // Each command is "x yhNv1h-Nz": one rectangle, one module high.
            let numbers = command.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            try #require(numbers.count == 5 && numbers[3] == 1 && numbers[2] == numbers[4], "\(command)")
            let (x, y, run) = (numbers[0], numbers[1], numbers[2])
            for column in x..<(x + run) {
                #expect(!painted[y][column], "painted twice")
                painted[y][column] = true
            }
        }
        let expected = (-margin..<(code.size + margin)).map { row in (-margin..<(code.size + margin)).map { code[row, $0] } }
        #expect(painted == expected)
    }
}
