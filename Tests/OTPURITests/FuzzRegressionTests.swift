import Foundation
import OTPCore
import OTPTestUtilities
import OTPURI
import Testing

/// Inputs the FuzzParsers libFuzzer target (Tests/Fuzz) stopped on, replayed through the checks it makes.
@Suite("Fuzzer regressions")
struct FuzzRegressionTests {
    static let directory = "Tests/Fuzz/Regressions/FuzzParsers"

    @Test("each input parses or fails cleanly, and what parses reads back unchanged", arguments: try Fixture.fileNames(in: directory))
    func replay(_ name: String) throws {
        let bytes = try Fixture.data(Self.directory + "/" + name)
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? Base32.decode(text)
        for mode in [OTPAuthURI.ParsingMode.lenient, .strict] {
            guard let parsed = try? OTPAuthURI(parsing: text, mode: mode) else { continue }
            #expect(try OTPAuthURI(parsing: parsed.string, mode: .lenient) == parsed)
            let names = parsed.additionalParameters.map(\.name)
            if !parsed.accountName.isEmpty && Set(names).count == names.count {
                #expect(try OTPAuthURI(parsing: parsed.string, mode: .strict) == parsed)
            }
        }
    }

    /// Found by the fuzzer: lenient parsing keeps repeated unknown parameters, which strict
    /// parsing rejects, so such a model's URI reads back only leniently.
    @Test("repeated unknown parameters: kept leniently, rejected strictly")
    func repeatedUnknownParameters() throws {
        let uri = "otpauth://totp/alice?secret=JBSWY3DPEHPK3PXP&x=1&x=2"
        let parsed = try OTPAuthURI(parsing: uri)
        #expect(parsed.additionalParameters == [.init(name: "x", value: "1"), .init(name: "x", value: "2")])
        #expect(parsed.string.hasSuffix("&x=1&x=2"))
        #expect(throws: OTPURIError.duplicateParameter("x")) { try OTPAuthURI(parsing: parsed.string, mode: .strict) }
    }

    /// Found by the fuzzer: a space before a combining mark is one Character with it, so trimming
    /// Characters kept the space that parsers drop.
    @Test("a leading space before a combining mark is trimmed like any leading space")
    func spaceBeforeCombiningMark() throws {
        let secret = try OTPSecret(base32: "JBSWY3DPEHPK3PXP")
        let model = try OTPAuthURI(issuer: "A", accountName: " \u{33E}x", secret: secret)
        #expect(model.accountName == "\u{33E}x")
        #expect(try OTPAuthURI(parsing: model.string) == model)
        let parsed = try OTPAuthURI(parsing: "otpauth://totp/A:%20%CC%BEx?secret=JBSWY3DPEHPK3PXP", mode: .strict)
        #expect(parsed.accountName == "\u{33E}x")
    }
}
