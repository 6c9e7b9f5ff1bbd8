import OTPQR
import Testing

@Suite("QR code matrix")
struct QRCodeTests {
    @Test("a short text encodes to a version 1 symbol with finder patterns")
    func versionOne() throws {
        let code = try QRCode(encoding: "hello")
        #expect(code.size == 21)
        #expect(code.version == 1)
        #expect(code.errorCorrection == .medium)
        // The top-left finder pattern: a dark 7x7 ring, a light ring, a dark 3x3 centre.
        for index in 0..<7 {
            #expect(code[0, index] && code[6, index] && code[index, 0] && code[index, 6])
        }
        #expect(!code[1, 1] && code[2, 2] && code[4, 4] && !code[5, 5])
        #expect(!code[-1, 0] && !code[0, 21] && !code[21, 21])
        #expect(code.rows.count == 21 && code.rows.allSatisfy { $0.count == 21 })
    }

    @Test("higher error correction needs a larger symbol for the same text")
    func levels() throws {
        let text = String(repeating: "otpauth://totp/Example:alice", count: 3)
        let sizes = try QRCode.ErrorCorrection.allCases.map { try QRCode(encoding: text, errorCorrection: $0).size }
        // 84 bytes: version 5 holds them at L and M, version 7 at Q, version 8 at H (ISO/IEC 18004 table 7).
        #expect(sizes == [37, 37, 45, 49])
    }

    @Test(
        "the longest input of each level fits version 40; one byte more is a typed error",
        arguments: QRCode.ErrorCorrection.allCases)
    func capacity(_ level: QRCode.ErrorCorrection) throws {
        let longest = [UInt8](repeating: UInt8(ascii: "x"), count: level.maximumByteCount)
        let code = try QRCode(encoding: longest, errorCorrection: level)
        #expect(code.version == 40)
        #expect(code.size == 177)
        #expect(throws: QRCodeError.inputTooLong(byteCount: longest.count + 1, maximum: level.maximumByteCount, errorCorrection: level)) {
            try QRCode(encoding: longest + [0x78], errorCorrection: level)
        }
    }

    @Test("errors say what was wrong")
    func errors() throws {
        #expect(throws: QRCodeError.emptyInput) { try QRCode(encoding: "") }
        let tooLong = QRCodeError.inputTooLong(byteCount: 3000, maximum: 2331, errorCorrection: .medium)
        #expect(tooLong.description == "text too long for a QR code: 3000 bytes, at most 2331 at error correction M (a lower level holds more)")
        let code = try QRCode(encoding: "x")
        #expect(throws: QRCodeError.invalidRenderingOption(name: "scale", value: 0, allowed: 1...100)) { try code.pngData(scale: 0) }
        #expect(throws: QRCodeError.invalidRenderingOption(name: "margin", value: -1, allowed: 0...100)) { try code.pngData(margin: -1) }
        #expect(throws: QRCodeError.invalidRenderingOption(name: "module size", value: 101, allowed: 1...100)) { try code.svgString(moduleSize: 101) }
        #expect(QRCodeError.invalidRenderingOption(name: "scale", value: 0, allowed: 1...100).description == "invalid scale 0: use 1 to 100")
    }
}

@Suite("QR code concurrency")
struct QRCodeConcurrencyTests {
    @Test("encoding from many tasks at once gives the same symbols")
    func concurrentEncoding() async throws {
        let texts = (0..<16).map { "otpauth://totp/Example:user\($0)@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example" }
        let expected = try texts.map { try QRCode(encoding: $0) }
        let results = try await withThrowingTaskGroup(of: (Int, QRCode).self) { group in
            for _ in 0..<8 {
                for (index, text) in texts.enumerated() {
                    group.addTask { (index, try QRCode(encoding: text, errorCorrection: .medium)) }
                }
            }
            var collected: [(Int, QRCode)] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 128)
        for (index, code) in results {
            #expect(code == expected[index])
        }
    }
}
