import Foundation
import Testing

/// `totp-enrollment` (behind `totp enroll`, `totp signin`, `totp reseal`) run as a person would,
/// with `oathtool` playing the authenticator app.
@Suite("Enrollment commands end to end", .serialized)
struct EnrollmentCommandTests {
    @Test("enroll (QR, key, first code), sign in with the next code, refuse its replay, list factors")
    func enrollAndSignIn() throws {
        let scratch = try Scratch()
        let enrolled = try scratch.enroll(user: "alice", email: "alice@example.com", firstAnswer: "000000")
        #expect(enrolled.output.contains("█"), "a QR code is drawn")
        #expect(enrolled.output.contains("otpauth://totp/OTPKit:alice@example.com?secret=\(enrolled.key)&issuer=OTPKit&algorithm=SHA1&digits=6"))
        #expect(enrolled.errors.contains("wrong verification code"), "a wrong first code is refused and asked again: \(enrolled.errors)")
        #expect(enrolled.output.contains("Enrolled a TOTP second factor for alice"))
        #expect(enrolled.status == 0)

        // The enrollment used this step's code; the next step's code is within the drift window.
        let next = try oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let signIn = try scratch.run(["signin", "--db", scratch.database, "--user", "alice", "--key-file", scratch.keyFile, "--code", next])
        #expect(signIn.status == 0, "\(signIn.errors)")
        #expect(signIn.output.hasPrefix("Signed in as alice with TOTP second factor "))
        let replay = try scratch.run(["signin", "--db", scratch.database, "--user", "alice", "--key-file", scratch.keyFile, "--code", next])
        #expect(replay.status == 1)
        #expect(replay.errors.contains("already used") && replay.errors.contains("INVALID_CODE"), "\(replay.errors)")

        let factors = try scratch.run(["factors", "--db", scratch.database, "--user", "alice", "--key-file", scratch.keyFile])
        #expect(factors.status == 0 && factors.output.contains("totp") && factors.output.contains("SHA1/6/30s"))
        #expect(!factors.output.contains(enrolled.key))
    }

    @Test("the same flow through `totp enroll` and `totp signin`, which hand over to totp-enrollment")
    func throughTOTP() throws {
        let scratch = try Scratch()
        let enrolled = try scratch.enroll(user: "frank", email: "frank@example.com", program: "totp")
        #expect(enrolled.status == 0, "\(enrolled.errors)")
        #expect(enrolled.output.contains("sign in with: totp signin --db \(scratch.database) --user frank --key-file \(scratch.keyFile)"))
        let next = try oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let signIn = try scratch.run(["signin", "--db", scratch.database, "--user", "frank", "--key-file", scratch.keyFile, "--code", next], program: "totp")
        #expect(signIn.status == 0, "\(signIn.errors)")
        let replay = try scratch.run(["signin", "--db", scratch.database, "--user", "frank", "--key-file", scratch.keyFile, "--code", next], program: "totp")
        #expect(replay.status == 1 && replay.errors.hasPrefix("totp signin: "), "\(replay.errors)")
    }

    @Test("the key can come from OTPKIT_SEALING_KEY; a wrong key and a missing key are clear errors")
    func keys() throws {
        let scratch = try Scratch()
        let enrolled = try scratch.enroll(user: "bob", email: "bob@example.com")
        let code = try oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let fromEnvironment = try scratch.run(
            ["signin", "--db", scratch.database, "--user", "bob", "--code", code],
            environment: ["OTPKIT_SEALING_KEY": scratch.keyHex]
        )
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.errors)")

        let wrongHex = String(repeating: "ab", count: 32)
        let wrong = try scratch.run(["signin", "--db", scratch.database, "--user", "bob", "--code", code], environment: ["OTPKIT_SEALING_KEY": wrongHex])
        #expect(wrong.status == 64)
        #expect(wrong.errors.hasPrefix("totp signin: enrollment database \(scratch.database) holds secrets sealed under key "), "\(wrong.errors)")
        #expect(!wrong.errors.contains(wrongHex) && !wrong.errors.contains(scratch.keyHex))

        let missing = try scratch.run(["signin", "--db", scratch.database, "--user", "bob", "--code", code], environment: ["OTPKIT_SEALING_KEY": ""])
        #expect(missing.status == 66)
        #expect(missing.errors.contains("no sealing key: pass --key-file FILE or set OTPKIT_SEALING_KEY"), "\(missing.errors)")
    }

    @Test("reseal moves every secret to a new key; afterwards the old key is not needed")
    func reseal() throws {
        let scratch = try Scratch()
        let enrolled = try scratch.enroll(user: "carol", email: "carol@example.com")
        let newKey = scratch.directory + "/new.key"
        try (String(repeating: "5c", count: 32) + "\n").write(toFile: newKey, atomically: true, encoding: .utf8)

        let refused = try scratch.run(["factors", "--db", scratch.database, "--user", "carol", "--key-file", newKey])
        #expect(refused.status == 64, "the new key alone cannot open the old rows: \(refused.errors)")

        let resealed = try scratch.run(["reseal", "--db", scratch.database, "--key-file", newKey, "--previous-key-file", scratch.keyFile])
        #expect(resealed.status == 0, "\(resealed.errors)")
        #expect(resealed.output.contains("Re-sealed 1 secret under key "))
        #expect(resealed.output.contains("seals nothing any more: it can be retired"))

        let code = try oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let signIn = try scratch.run(["signin", "--db", scratch.database, "--user", "carol", "--key-file", newKey, "--code", code])
        #expect(signIn.status == 0, "\(signIn.errors)")
        let oldKey = try scratch.run(["factors", "--db", scratch.database, "--user", "carol", "--key-file", scratch.keyFile])
        #expect(oldKey.status == 64)
    }

    @Test("keygen writes a usable owner-only key, refuses to overwrite it, and --if-missing keeps it")
    func keygen() throws {
        let scratch = try Scratch()
        let path = scratch.directory + "/generated.key"
        let first = try scratch.run(["keygen", path])
        #expect(first.status == 0 && first.errors.contains("Wrote a new sealing key to \(path)"), "\(first.errors)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!first.errors.contains(text.trimmingCharacters(in: .whitespacesAndNewlines)), "the key is never printed")
        let again = try scratch.run(["keygen", path])
        #expect(again.status == 73 && again.errors.contains("a key is never overwritten"), "\(again.errors)")
        let kept = try scratch.run(["keygen", "--if-missing", path])
        #expect(kept.status == 0 && kept.errors.contains("Keeping the existing sealing key"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let factors = try scratch.run(["factors", "--db", scratch.database, "--user", "erin", "--key-file", path])
        #expect(factors.status == 0, "\(factors.errors)")
    }

    @Test("no code at all (end of input) enrolls nothing and says so")
    func endOfInput() throws {
        let scratch = try Scratch()
        let result = try scratch.run(
            ["enroll", "--db", scratch.database, "--user", "dave", "--email", "dave@example.com", "--key-file", scratch.keyFile, "--qr", "none"]
        )
        #expect(result.status == 1)
        #expect(result.errors.contains("no code entered: nothing was enrolled"), "\(result.errors)")
        let factors = try scratch.run(["factors", "--db", scratch.database, "--user", "dave", "--key-file", scratch.keyFile])
        #expect(factors.output == "dave has no second factor.\n")
    }

    @Test("bad input: an unwritable database path and a malformed key file", arguments: ["missing-dir", "bad-key"])
    func badInput(kind: String) throws {
        let scratch = try Scratch()
        if kind == "missing-dir" {
            let result = try scratch.run(["signin", "--db", scratch.directory + "/no/such/dir/x.sqlite", "--user", "x", "--key-file", scratch.keyFile, "--code", "123456"])
            #expect(result.status == 74)
            #expect(result.errors.contains("does not exist"), "\(result.errors)")
        } else {
            let bad = scratch.directory + "/bad.key"
            try "not a key".write(toFile: bad, atomically: true, encoding: .utf8)
            let result = try scratch.run(["signin", "--db", scratch.database, "--user", "x", "--key-file", bad, "--code", "123456"])
            #expect(result.status == 64)
            #expect(result.errors.contains("neither 32 raw bytes nor 64 hexadecimal characters"), "\(result.errors)")
        }
    }
}
