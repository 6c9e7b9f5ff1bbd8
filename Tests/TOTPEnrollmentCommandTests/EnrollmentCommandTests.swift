import Foundation
import Testing

/// `totp-enrollment` (behind `totp enroll`, `totp signin`, `totp reseal`) run as a person would,
/// with `oathtool` playing the authenticator app.
@Suite("Enrollment commands end to end", .serialized)
struct EnrollmentCommandTests {
    @Test("enroll (QR, key, first code), sign in with the next code, refuse its replay, list factors")
    func enrollAndSignIn() async throws {
        let scratch = try Scratch()
        let enrolled = try await scratch.enroll(user: "alice", email: "alice@example.com", firstAnswer: "000000")
        #expect(enrolled.stdout.contains("█"), "a QR code is drawn")
        #expect(enrolled.stdout.contains("otpauth://totp/OTPKit:alice@example.com?secret=\(enrolled.key)&issuer=OTPKit&algorithm=SHA1&digits=6"))
        #expect(enrolled.stderr.contains("wrong verification code"), "a wrong first code is refused and asked again: \(enrolled.stderr)")
        #expect(enrolled.stdout.contains("Enrolled a TOTP second factor for alice"))
        #expect(enrolled.status == 0)

        // The enrollment used this step's code; the next step's code is within the drift window.
        let next = try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let signIn = try await scratch.run(["signin", "--db", scratch.database, "--user", "alice", "--key-file", scratch.keyFile, "--code", next])
        #expect(signIn.status == 0, "\(signIn.stderr)")
        #expect(signIn.stdout.hasPrefix("Signed in as alice with TOTP second factor "))
        let replay = try await scratch.run(["signin", "--db", scratch.database, "--user", "alice", "--key-file", scratch.keyFile, "--code", next])
        #expect(replay.status == 1)
        #expect(
            replay.stderr
                == "totp signin: wrong or already used verification code: enter the code the authenticator app shows now [INVALID_CODE, 17044]\n")

        let factors = try await scratch.run(["factors", "--db", scratch.database, "--user", "alice", "--key-file", scratch.keyFile])
        #expect(factors.status == 0)
        // One line: id, factor kind, display name, enrollment time, algorithm/digits/period.
        #expect(
            factors.stdout.wholeMatch(
                of: #/[A-Za-z0-9]{15}  totp  [^\n]+  enrolled [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z  SHA1\/6\/30s\n/#) != nil,
            "\(factors)")
        #expect(!factors.stdout.contains(enrolled.key))
    }

    @Test("the same flow through `totp enroll` and `totp signin`, which hand over to totp-enrollment")
    func throughTOTP() async throws {
        let scratch = try Scratch()
        let enrolled = try await scratch.enroll(user: "frank", email: "frank@example.com", program: "totp")
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("sign in with: totp signin --db \(scratch.database) --user frank --key-file \(scratch.keyFile)"))
        let next = try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let signIn = try await scratch.run(
            ["signin", "--db", scratch.database, "--user", "frank", "--key-file", scratch.keyFile, "--code", next], program: "totp")
        #expect(signIn.status == 0, "\(signIn.stderr)")
        let replay = try await scratch.run(
            ["signin", "--db", scratch.database, "--user", "frank", "--key-file", scratch.keyFile, "--code", next], program: "totp")
        #expect(replay.status == 1)
        #expect(
            replay.stderr
                == "totp signin: wrong or already used verification code: enter the code the authenticator app shows now [INVALID_CODE, 17044]\n")
    }

    @Test("the key can come from OTPKIT_SEALING_KEY; a wrong key and a missing key are clear errors")
    func keys() async throws {
        let scratch = try Scratch()
        let enrolled = try await scratch.enroll(user: "bob", email: "bob@example.com")
        let code = try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let fromEnvironment = try await scratch.run(
            ["signin", "--db", scratch.database, "--user", "bob", "--code", code],
            environment: ["OTPKIT_SEALING_KEY": scratch.keyHex]
        )
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")

        let wrongHex = String(repeating: "ab", count: 32)
        let wrong = try await scratch.run(
            ["signin", "--db", scratch.database, "--user", "bob", "--code", code], environment: ["OTPKIT_SEALING_KEY": wrongHex])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("totp signin: enrollment database \(scratch.database) holds secrets sealed under key "), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains(wrongHex) && !wrong.stderr.contains(scratch.keyHex))

        let missing = try await scratch.run(
            ["signin", "--db", scratch.database, "--user", "bob", "--code", code], environment: ["OTPKIT_SEALING_KEY": ""])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("no sealing key: pass --key-file FILE or set OTPKIT_SEALING_KEY"), "\(missing.stderr)")
    }

    @Test("reseal moves every secret to a new key; afterwards the old key is not needed")
    func reseal() async throws {
        try await Scratch().checkReseal()
    }

    @Test("keygen writes a usable owner-only key, refuses to overwrite it, and --if-missing keeps it")
    func keygen() async throws {
        let scratch = try Scratch()
        let path = scratch.directory + "/generated.key"
        let first = try await scratch.run(["keygen", path])
        #expect(first.status == 0 && first.stderr.contains("Wrote a new sealing key to \(path)"), "\(first.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!first.stderr.contains(text.trimmingCharacters(in: .whitespacesAndNewlines)), "the key is never printed")
        let again = try await scratch.run(["keygen", path])
        #expect(again.status == 73 && again.stderr.contains("a key is never overwritten"), "\(again.stderr)")
        let kept = try await scratch.run(["keygen", "--if-missing", path])
        #expect(kept.status == 0 && kept.stderr.contains("Keeping the existing sealing key"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let factors = try await scratch.run(["factors", "--db", scratch.database, "--user", "erin", "--key-file", path])
        #expect(factors.status == 0, "\(factors.stderr)")
    }

    @Test("no code at all (end of input) enrolls nothing and says so")
    func endOfInput() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            ["enroll", "--db", scratch.database, "--user", "dave", "--email", "dave@example.com", "--key-file", scratch.keyFile, "--qr", "none"]
        )
        #expect(result.status == 1)
        #expect(result.stderr.contains("no code entered: nothing was enrolled"), "\(result.stderr)")
        let factors = try await scratch.run(["factors", "--db", scratch.database, "--user", "dave", "--key-file", scratch.keyFile])
        #expect(factors.stdout == "dave has no second factor.\n")
    }

    @Test("bad input: an unwritable database path and a malformed key file", arguments: ["missing-dir", "bad-key"])
    func badInput(kind: String) async throws {
        let scratch = try Scratch()
        if kind == "missing-dir" {
            let result = try await scratch.run([
                "signin", "--db", scratch.directory + "/no/such/dir/x.sqlite", "--user", "x", "--key-file", scratch.keyFile, "--code", "123456",
            ])
            #expect(result.status == 74)
            #expect(result.stderr.contains("does not exist"), "\(result.stderr)")
        } else {
            let bad = scratch.directory + "/bad.key"
            try "not a key".write(toFile: bad, atomically: true, encoding: .utf8)
            let result = try await scratch.run(["signin", "--db", scratch.database, "--user", "x", "--key-file", bad, "--code", "123456"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("neither 32 raw bytes nor 64 hexadecimal characters"), "\(result.stderr)")
        }
    }
}
