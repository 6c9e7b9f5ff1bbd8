import OTPCore
import Testing

@Suite("Base32")
struct Base32Tests {
    @Test("Lenient decoding ignores case, spaces, hyphens and optional padding")
    func lenient() throws {
        let expected = Array("foobar".utf8)
        for text in ["MZXW6YTBOI", "mzxw6ytboi", "MzXw 6yTb oI", "MZXW-6YTB-OI", "mzxw 6ytb oi======", " MZXW6YTBOI\n", "MZXW6YTBOI=="] {
            #expect(try Base32.decode(text) == expected, "\(text)")
        }
    }

    @Test("Strict decoding rejects what lenient forgives")
    func strict() throws {
        #expect(throws: OTPError.invalidBase32Character("m", offset: 0)) { try Base32.decode("mzxw6ytboi", mode: .strict) }
        #expect(throws: OTPError.invalidBase32Character(" ", offset: 4)) { try Base32.decode("MZXW 6YTBOI", mode: .strict) }
        #expect(throws: OTPError.invalidBase32Character("-", offset: 4)) { try Base32.decode("MZXW-6YTBOI", mode: .strict) }
        #expect(throws: OTPError.invalidBase32Padding(offset: 10)) { try Base32.decode("MZXW6YTBOI==", mode: .strict) }
        // "MZXW6YTBOJ" carries a 1 in the unused low bits of its last character.
        #expect(throws: OTPError.nonCanonicalBase32) { try Base32.decode("MZXW6YTBOJ", mode: .strict) }
        #expect(try Base32.decode("MZXW6YTBOJ") == Array("foobar".utf8))
    }

    @Test(
        "An invalid character is reported with its offset",
        arguments: [
            ("JBSWY3DP1", Character("1"), 8),
            ("JBSW0Y3DP", Character("0"), 4),
            ("8BSWY3DP", Character("8"), 0),
            ("JBSWé3DP", Character("é"), 4),
            ("JB🔑WY3DP", Character("🔑"), 2),
            ("JBSWY3D!", Character("!"), 7),
        ])
    func invalidCharacter(text: String, character: Character, offset: Int) {
        #expect(throws: OTPError.invalidBase32Character(character, offset: offset)) { try Base32.decode(text) }
    }

    @Test("Impossible lengths are rejected", arguments: ["A", "ABC", "ABCDEF", "ABCDEFGHA"])
    func impossibleLength(text: String) {
        #expect(throws: OTPError.invalidBase32Length(text.count)) { try Base32.decode(text) }
    }

    @Test("Padding only at the end, and not too much of it")
    func padding() {
        #expect(throws: OTPError.invalidBase32Padding(offset: 4)) { try Base32.decode("MY==MZXQ") }
        #expect(throws: OTPError.invalidBase32Padding(offset: 8)) { try Base32.decode("MZXW6YTB=") }
        #expect(throws: OTPError.invalidBase32Padding(offset: 2)) { try Base32.decode("MY=======") }
        #expect(throws: OTPError.invalidBase32Padding(offset: 0)) { try Base32.decode("====") }
    }

    @Test("Encoding then decoding returns the bytes, for every length up to 70")
    func roundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let text = Base32.encode(bytes)
            #expect(!text.contains("="))
            #expect(text.count == (length * 8 + 4) / 5)
            #expect(try Base32.decode(text, mode: .strict) == bytes)
        }
    }
}
