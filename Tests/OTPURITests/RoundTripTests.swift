import OTPCore
import OTPURI
import Testing

/// parse(format(x)) == x for random issuers, accounts and parameters.
@Suite("Round trip")
struct RoundTripTests {
    /// Characters that stress the format: delimiters of every URI part, escapes, `+`, spaces,
    /// controls, combining marks, characters outside the BMP.
    static let tricky: [String] = [
        "&", "=", "?", "#", "%", ":", "/", "+", " ", "@", ";", ",", "!", "'", "(", ")", "*", "$", "[", "]",
        "~", "-", ".", "_", "\"", "<", ">", "\\", "^", "`", "{", "|", "}", "\t", "\n", "\u{7F}",
        "é", "ü", "ß", "\u{33E}", "\u{301}", "中", "文", "😀", "🇩🇪", "e\u{301}", "\u{200B}", "%3A", "%20", "%25", "%",
    ]

    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            // SplitMix64: reproducible cases from a printed seed.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomText(_ generator: inout SeededGenerator, maximumLength: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maximumLength, using: &generator) {
            if Bool.random(using: &generator) {
                text += tricky.randomElement(using: &generator)!
            } else {
                let scalar = Unicode.Scalar(UInt32.random(in: 0x20...0x7E, using: &generator))!
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// A colon in the account gets an empty issuer prefix, so the label has a separator and the
    /// spaces after it are padding; a colon and a combining mark after it are one Character (a
    /// random case found this).
    @Test(
        "an account with a colon and no issuer starts without spaces in the model, as it does once parsed",
        arguments: [" user:name", "  a:\u{33E}b", " \u{33E}:x"])
    func colonInAccountWithoutIssuer(account: String) throws {
        let model = try OTPAuthURI(issuer: nil, accountName: account, secret: OTPSecret.random(byteCount: 20))
        #expect(model.accountName == String(account.unicodeScalars.drop { $0 == " " }))
        #expect(model.string.hasPrefix("otpauth://totp/:"))
        for mode in [OTPAuthURI.ParsingMode.strict, .lenient] {
            #expect(try OTPAuthURI(parsing: model.string, mode: mode) == model)
        }
    }

    @Test("a leading space stays in an account with neither issuer nor colon")
    func leadingSpaceWithoutSeparator() throws {
        let model = try OTPAuthURI(issuer: nil, accountName: " user", secret: OTPSecret.random(byteCount: 20))
        #expect(model.accountName == " user")
        #expect(try OTPAuthURI(parsing: model.string) == model)
    }

    @Test("5,000 random models survive format and parse in both modes")
    func randomRoundTrip() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var generator = SeededGenerator(state: seed)
        for index in 0..<5_000 {
            let kind: OTPAuthURI.Kind = Bool.random(using: &generator) ? .totp : .hotp
            let issuer: String? = index % 5 == 0 ? nil : Self.randomText(&generator, maximumLength: 12)
            let account = Self.randomText(&generator, maximumLength: 20)
            let parameters = (0..<Int.random(in: 0...2, using: &generator)).map { number in
                OTPAuthURI.Parameter(
                    name: "x\(number)" + Self.randomText(&generator, maximumLength: 4),
                    value: Self.randomText(&generator, maximumLength: 10))
            }
            let model = try OTPAuthURI(
                kind: kind,
                issuer: issuer,
                accountName: account,
                secret: OTPSecret.random(byteCount: Int.random(in: 10...64, using: &generator)),
                algorithm: OTPAlgorithm.allCases.randomElement(using: &generator)!,
                digits: Int.random(in: 6...10, using: &generator),
                period: Int64.random(in: 1...3600, using: &generator),
                counter: kind == .hotp ? UInt64.random(in: 0...UInt64.max, using: &generator) : nil,
                additionalParameters: parameters
            )
            let uri = model.string
            // Strict parsing requires an account name, as Google's format does.
            let modes: [OTPAuthURI.ParsingMode] = model.accountName.isEmpty ? [.lenient] : [.strict, .lenient]
            for mode in modes {
                let parsed: OTPAuthURI
                do {
                    parsed = try OTPAuthURI(parsing: uri, mode: mode)
                } catch {
                    Issue.record("seed \(seed) case \(index) \(mode): \(uri) rejected: \(error)")
                    return
                }
                if parsed != model {
                    Issue.record(
                        "seed \(seed) case \(index) \(mode): \(uri) parsed as \(parsed), expected \(model) \(parsed.additionalParameters) \(model.additionalParameters)"
                    )
                    return
                }
            }
        }
    }
}
