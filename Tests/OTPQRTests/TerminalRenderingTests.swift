import OTPQR
import OTPTestUtilities
import Testing

/// Parses each text rendering back into modules and compares it with the matrix.
@Suite("Terminal renderings")
struct TerminalRenderingTests {
    static let texts = [
        "x",
        "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
        "otpauth://totp/B%C3%BCro:j%C3%BCrgen?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZHXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=B%C3%BCro&algorithm=SHA512&digits=8&period=60",
        String(repeating: "0123456789", count: 80),
    ]

    /// The expected picture including the quiet zone: `true` for dark.
    static func expected(_ code: QRCode) -> [[Bool]] {
        let zone = QRCode.quietZone
        return (-zone..<(code.size + zone)).map { row in (-zone..<(code.size + zone)).map { code[row, $0] } }
    }

    @Test("UTF-8 half blocks, normal: two module rows per line", arguments: texts)
    func halfBlocks(_ text: String) throws {
        let code = try QRCode(encoding: text)
        let lines = code.utf8String().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let extent = code.size + 2 * QRCode.quietZone
        #expect(lines.count == (extent + 1) / 2)
        var picture: [[Bool]] = []
        for line in lines {
            #expect(line.count == extent)
            var top: [Bool] = []
            var bottom: [Bool] = []
            for character in line {
                switch character {
                case "█":
                    top.append(true)
                    bottom.append(true)
                case "▀":
                    top.append(true)
                    bottom.append(false)
                case "▄":
                    top.append(false)
                    bottom.append(true)
                case " ":
                    top.append(false)
                    bottom.append(false)
                default: Issue.record("unexpected character \(character)")
                }
            }
            picture.append(top)
            picture.append(bottom)
        }
        // An odd number of rows leaves the last line's lower half outside the picture: blank.
        #expect(picture.removeLast().allSatisfy { !$0 })
        #expect(picture == Self.expected(code))
    }

    @Test("UTF-8 half blocks, inverted: every light module drawn", arguments: texts)
    func invertedHalfBlocks(_ text: String) throws {
        let code = try QRCode(encoding: text)
        let normal = code.utf8String()
        let inverted = code.utf8String(inverted: true)
        let normalLines = normal.split(separator: "\n", omittingEmptySubsequences: false)
        let invertedLines = inverted.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(normalLines.count == invertedLines.count)
        let complement: [Character: Character] = [" ": "█", "█": " ", "▀": "▄", "▄": "▀"]
        for (index, (plain, dark)) in zip(normalLines, invertedLines).enumerated() {
            let isLast = index == normalLines.count - 2
            let expected = String(
                plain.map { character -> Character in
                    let swapped = complement[character]!
                    // The lower half of the last line is outside the picture and stays undrawn.
                    if isLast { return swapped == "█" ? "▀" : swapped == "▄" ? " " : swapped }
                    return swapped
                })
            #expect(String(dark) == expected, "line \(index)")
        }
    }

    @Test("ASCII: '##' per dark module", arguments: texts)
    func ascii(_ text: String) throws {
        let code = try QRCode(encoding: text)
        let picture = code.asciiString().split(separator: "\n").map { line -> [Bool] in
            let bytes = Array(line.utf8)
            return stride(from: 0, to: bytes.count, by: 2).map { bytes[$0] == UInt8(ascii: "#") && bytes[$0 + 1] == UInt8(ascii: "#") }
        }
        #expect(picture == Self.expected(code))
    }

    @Test("ANSI: a background colour per two-column module, colours reset on every line", arguments: texts)
    func ansi(_ text: String) throws {
        let code = try QRCode(encoding: text)
        #expect(TerminalDrawing.modules(ansi: code.ansiString()) == Self.expected(code))
    }
}
