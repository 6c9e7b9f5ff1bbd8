import Foundation
import OTPTestUtilities
import Testing

/// `totp recovery-codes` and `totp signin --recovery-code`: a set shown once, each code spent
/// once, a new set voiding the old one.
@Suite("totp recovery-codes", .serialized)
struct RecoveryCodesCommandTests {
    static let warning =
        "These 10 recovery codes are shown once and replace any earlier set: store them somewhere safe, apart from the authenticator.\n"
    static let spent =
        "totp signin: wrong or already used recovery code: each code works once; generate a new set when they run out [INVALID_CODE, 17044]\n"

    /// The documented form: two groups of five of Crockford's Base32, lowercase (`k3m9q-7xw2c`).
    static func isRecoveryCode(_ text: some StringProtocol) -> Bool {
        String(text).wholeMatch(of: #/[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}/#) != nil
    }

    /// The options every run of the scratch database takes, for `user`.
    static func store(_ scratch: Scratch, _ user: String) -> [String] {
        ["--db", scratch.database, "--user", user, "--key-file", scratch.keyFile]
    }

    /// Enrolls `user` and returns a code for the next time step, which a sign-in accepts once.
    static func enrolledWithNextCode(_ scratch: Scratch, _ user: String, program: String = "totp-enrollment") async throws -> String {
        let enrolled = try await scratch.enroll(user: user, email: "\(user)@example.com", program: program)
        try #require(enrolled.status == 0, "\(enrolled.stderr)")
        return try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
    }

    @Test("generate ten codes, count them, sign in with one, refuse it the second time")
    func generateCountAndSpend() async throws {
        let scratch = try Scratch()
        let code = try await Self.enrolledWithNextCode(scratch, "rita")
        let none = try await scratch.run(["recovery-codes"] + Self.store(scratch, "rita"))
        #expect(none.status == 0 && none.stdout == "rita has no unused recovery codes.\n", "\(none)")

        let generated = try await scratch.run(["recovery-codes", "--generate", "--code", code] + Self.store(scratch, "rita"))
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stderr == Self.warning)
        let codes = generated.stdout.split(separator: "\n").map(String.init)
        #expect(generated.stdout.hasSuffix("\n") && codes.count == 10, "\(generated.stdout)")
        #expect(codes.allSatisfy { Self.isRecoveryCode($0) }, "\(codes)")
        #expect(Set(codes).count == 10)

        let ten = try await scratch.run(["recovery-codes"] + Self.store(scratch, "rita"))
        #expect(ten.status == 0 && ten.stdout == "rita has 10 unused recovery codes.\n", "\(ten)")

        let signIn = try await scratch.run(["signin", "--recovery-code", codes[0]] + Self.store(scratch, "rita"))
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(signIn.stdout == "Signed in as rita with a recovery code; 9 unused recovery codes left.\n")
        let nine = try await scratch.run(["recovery-codes"] + Self.store(scratch, "rita"))
        #expect(nine.stdout == "rita has 9 unused recovery codes.\n", "\(nine)")

        let again = try await scratch.run(["signin", "--recovery-code", codes[0]] + Self.store(scratch, "rita"))
        #expect(again.status == 1)
        #expect(again.stderr == Self.spent)
        #expect(again.stdout == "")

        // Copied by hand: upper case, a space for the hyphen.
        let typed = codes[1].uppercased().replacingOccurrences(of: "-", with: " ")
        let byHand = try await scratch.run(["signin", "--recovery-code", typed] + Self.store(scratch, "rita"))
        #expect(byHand.status == 0, "\(byHand.stderr)")
        #expect(byHand.stdout == "Signed in as rita with a recovery code; 8 unused recovery codes left.\n")
    }

    @Test("--json prints the codes and the count; a new set (signed in with a recovery code) voids the old one")
    func jsonAndRegenerate() async throws {
        let scratch = try Scratch()
        let code = try await Self.enrolledWithNextCode(scratch, "sam")
        let first = try await scratch.run(["recovery-codes", "--generate", "--json", "--code", code] + Self.store(scratch, "sam"))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr == Self.warning)
        #expect(first.stdout.hasSuffix("\n") && first.stdout.split(separator: "\n").count == 1, "one line: \(first.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any], "\(first.stdout)")
        #expect(Set(object.keys) == ["codes"])
        let old = try #require(object["codes"] as? [String], "\(first.stdout)")
        #expect(old.count == 10 && old.allSatisfy { Self.isRecoveryCode($0) }, "\(old)")

        let count = try await scratch.run(["recovery-codes", "--json"] + Self.store(scratch, "sam"))
        #expect(count.status == 0 && count.stdout == #"{"remaining":10}"# + "\n" && count.stderr == "", "\(count)")

        let second = try await scratch.run(["recovery-codes", "--generate", "--recovery-code", old[0]] + Self.store(scratch, "sam"))
        #expect(second.status == 0, "\(second.stderr)")
        let new = second.stdout.split(separator: "\n").map(String.init)
        #expect(new.count == 10 && Set(new).isDisjoint(with: old), "\(new)")
        let recount = try await scratch.run(["recovery-codes", "--json"] + Self.store(scratch, "sam"))
        #expect(recount.stdout == #"{"remaining":10}"# + "\n", "the new set, none spent: \(recount)")

        let voided = try await scratch.run(["signin", "--recovery-code", old[1]] + Self.store(scratch, "sam"))
        #expect(voided.status == 1 && voided.stderr == Self.spent, "\(voided)")
        let fresh = try await scratch.run(["signin", "--recovery-code", new[0]] + Self.store(scratch, "sam"))
        #expect(fresh.status == 0, "\(fresh.stderr)")
    }

    @Test("totp recovery-codes and totp signin --recovery-code hand over to totp-enrollment")
    func throughTOTP() async throws {
        let scratch = try Scratch()
        let code = try await Self.enrolledWithNextCode(scratch, "tess", program: "totp")
        let generated = try await scratch.run(["recovery-codes", "--generate", "--code", code] + Self.store(scratch, "tess"), program: "totp")
        #expect(generated.status == 0 && generated.stderr == Self.warning, "\(generated.stderr)")
        let codes = generated.stdout.split(separator: "\n").map(String.init)
        #expect(codes.count == 10 && codes.allSatisfy { Self.isRecoveryCode($0) }, "\(codes)")

        let signIn = try await scratch.run(["signin", "--recovery-code", codes[9]] + Self.store(scratch, "tess"), program: "totp")
        #expect(signIn.status == 0 && signIn.stdout == "Signed in as tess with a recovery code; 9 unused recovery codes left.\n", "\(signIn)")
        let count = try await scratch.run(["recovery-codes", "--json"] + Self.store(scratch, "tess"), program: "totp")
        #expect(count.status == 0 && count.stdout == #"{"remaining":9}"# + "\n", "\(count)")
        let again = try await scratch.run(["signin", "--recovery-code", codes[9]] + Self.store(scratch, "tess"), program: "totp")
        #expect(again.status == 1 && again.stderr == Self.spent, "\(again)")

        let help = try await scratch.run(["recovery-codes", "--help"], program: "totp")
        #expect(help.status == 0 && help.stdout.contains("USAGE: totp-enrollment recovery-codes"), "\(help)")
    }

    @Test("refusals: no second factor to stand in for, a code that cannot be one, options that do not combine")
    func refusals() async throws {
        let scratch = try Scratch()
        let noFactor = try await scratch.run(["recovery-codes", "--generate"] + Self.store(scratch, "uma"))
        #expect(noFactor.status == 1)
        #expect(
            noFactor.stderr
                == "totp recovery-codes: uma has no second factor in \(scratch.database), so recovery codes would never be asked for: enroll one with `totp enroll --db \(scratch.database) --user uma --email ADDRESS`\n"
        )
        #expect(noFactor.stdout == "")
        let stillNone = try await scratch.run(["recovery-codes", "--json"] + Self.store(scratch, "uma"))
        #expect(stillNone.stdout == #"{"remaining":0}"# + "\n", "nothing was generated: \(stillNone)")

        let code = try await Self.enrolledWithNextCode(scratch, "vic")
        let malformed = try await scratch.run(["signin", "--recovery-code", "not-a-code"] + Self.store(scratch, "vic"))
        #expect(malformed.status == 1)
        #expect(
            malformed.stderr
                == "totp signin: that is not a recovery code: recovery codes are ten letters and digits, such as k3m9q-7xw2c [INVALID_CODE, 17044]\n")

        let both = try await scratch.run(["signin", "--code", code, "--recovery-code", "k3m9q-7xw2c"] + Self.store(scratch, "vic"))
        #expect(both.status == 64)
        #expect(both.stderr == "totp signin: --code and --recovery-code are alternatives: pass one\n", "\(both.stderr)")
        let countWithCode = try await scratch.run(["recovery-codes", "--code", code] + Self.store(scratch, "vic"))
        #expect(countWithCode.status == 64)
        #expect(
            countWithCode.stderr
                == "totp recovery-codes: --factor, --code and --recovery-code sign in for --generate: counting needs no sign-in\n",
            "\(countWithCode.stderr)")

        // TOTP sign-in is unchanged beside recovery codes.
        let totp = try await scratch.run(["signin", "--code", code] + Self.store(scratch, "vic"))
        #expect(totp.status == 0 && totp.stdout.hasPrefix("Signed in as vic with TOTP second factor "), "\(totp)")
    }
}
