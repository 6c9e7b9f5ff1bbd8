import Foundation
import OTPAuthentication
import OTPTestUtilities
import Testing

@Suite("Password hashes")
struct PasswordHasherTests {
    /// Cheap parameters: the tests check the format and the logic, not the cost.
    static let cheap = try! PasswordHashParameters(logN: 10, r: 8, p: 1)

    @Test("a hash is a PHC scrypt string with its parameters; the right password matches, a wrong one does not")
    func roundTrip() throws {
        let hasher = PasswordHasher(parameters: Self.cheap)
        let hash = try hasher.hash("correct horse")
        #expect(hash.wholeMatch(of: #/\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}/#) != nil, "\(hash)")
        #expect(!hash.contains("correct"))
        #expect(hasher.verify("correct horse", against: hash) == .matches(needsRehash: false))
        #expect(hasher.verify("correct horsE", against: hash) == .doesNotMatch)
        #expect(hasher.verify("", against: hash) == .doesNotMatch)
        #expect(try hasher.hash("correct horse") != hash, "every hash has its own salt")
    }

    @Test("a hash made at other parameters still verifies, and asks to be re-hashed")
    func rehash() throws {
        let old = try PasswordHasher(parameters: Self.cheap).hash("pässwörd")
        let raised = PasswordHasher(parameters: try PasswordHashParameters(logN: 11, r: 8, p: 1))
        #expect(raised.verify("pässwörd", against: old) == .matches(needsRehash: true))
        #expect(raised.verify("passwort", against: old) == .doesNotMatch)
    }

    @Test("stored text that is not such a hash, or asks for out-of-range work, is unusable before any work")
    func unusable() throws {
        let hasher = PasswordHasher(parameters: Self.cheap)
        let good = try hasher.hash("x")
        let parts = good.split(separator: "$", omittingEmptySubsequences: false)
        for bad in [
            "", "plaintext", "$scrypt$", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
            "$scrypt$ln=30,r=8,p=1$\(parts[3])$\(parts[4])", "$scrypt$ln=10,r=8$\(parts[3])$\(parts[4])",
            "$scrypt$ln=10,r=8,p=1,p=1$\(parts[3])$\(parts[4])", "$scrypt$ln=10,r=8,p=1$\(parts[3])$c2hvcnQ",
            "$scrypt$ln=10,r=8,p=1$!!!$\(parts[4])", good + "$extra",
        ] {
            #expect(hasher.verify("x", against: bad) == .unusableHash, "\(bad)")
        }
        #expect(throws: PasswordHashError.parametersOutOfRange(logN: 21, r: 8, p: 1)) { try PasswordHashParameters(logN: 21, r: 8, p: 1) }
    }

    @Test("the derived keys agree with Python's hashlib.scrypt (OpenSSL), for ASCII and Unicode passwords")
    func pythonCrossCheck() async throws {
        let hasher = PasswordHasher(parameters: try PasswordHashParameters(logN: 12, r: 8, p: 2))
        let passwords = ["a", "correct horse battery staple", "pässwörd ✓ 🔑", String(repeating: "x", count: 200)]
        var lines: [String] = []
        for password in passwords {
            let hash = try hasher.hash(password)
            lines.append(Data(password.utf8).base64EncodedString() + " " + hash)
        }
        let script = """
            import base64, hashlib, sys
            def unpadded(text):
                return base64.b64decode(text + "=" * (-len(text) % 4))
            for line in sys.stdin.read().splitlines():
                password, encoded = line.split(" ")
                _, _, params, salt, key = encoded.split("$")
                values = dict(pair.split("=") for pair in params.split(","))
                n, r, p = 1 << int(values["ln"]), int(values["r"]), int(values["p"])
                derived = hashlib.scrypt(base64.b64decode(password), salt=unpadded(salt), n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=32)
                print("same" if derived == unpadded(key) else "different")
            """
        let run = try await ProcessRunner.run(ExternalTool.debianPython3.path(), ["-c", script], input: lines.joined(separator: "\n"))
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == String(repeating: "same\n", count: passwords.count), "\(run)")
    }

    /// FIPS 180 and RFC 1321's digests of "abc", split between salt and password either way.
    static let abcDigests: [(PasswordHasher.DigestHash, String)] = [
        (.md5, "900150983cd24fb0d6963f7d28e17f72"),
        (.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            .sha512,
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        ),
    ]

    @Test("plain-digest imports check the published digests of abc, salt first or password first, and ask to be re-hashed")
    func plainDigests() throws {
        let hasher = PasswordHasher(parameters: Self.cheap)
        for (function, hex) in Self.abcDigests {
            let digest = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
            let saltFirst = try PasswordHasher.digestHash(digest, salt: Array("a".utf8), rounds: 1, function: function)
            #expect(hasher.reads(saltFirst))
            #expect(hasher.verify("bc", against: saltFirst) == .matches(needsRehash: true), "\(function)")
            #expect(hasher.verify("abc", against: saltFirst) == .doesNotMatch, "\(function)")
            let passwordFirst = try PasswordHasher.digestHash(digest, salt: Array("bc".utf8), rounds: 1, function: function, order: .passwordFirst)
            #expect(hasher.verify("a", against: passwordFirst) == .matches(needsRehash: true), "\(function)")
            let unsalted = try PasswordHasher.digestHash(digest, salt: [], rounds: 1, function: function)
            #expect(hasher.verify("abc", against: unsalted) == .matches(needsRehash: true), "\(function)")
            // Two rounds are the digest of the digest: the one-round hash no longer matches.
            let twice = try PasswordHasher.digestHash(digest, salt: [], rounds: 2, function: function)
            #expect(hasher.verify("abc", against: twice) == .doesNotMatch, "\(function)")
        }
        #expect(throws: PasswordHashError.self) { try PasswordHasher.digestHash([1, 2, 3], salt: [], rounds: 1, function: .sha256) }
        #expect(throws: PasswordHashError.self) { try PasswordHasher.digestHash(Array(repeating: 0, count: 16), salt: [], rounds: 0, function: .md5) }
        #expect(!hasher.reads("$digest-sha256$r=1,o=xx$$AAAA"))
        #expect(hasher.verify("abc", against: "$digest-sha3$r=1,o=sp$$AAAA") == .unusableHash)
    }

    /// RFC 2202's and RFC 4231's test case 2: the HMAC under "Jefe" of "what do ya want for nothing?".
    static let jefeHMACs: [(PasswordHasher.DigestHash, String)] = [
        (.md5, "750c783e6ab0b503eaa86e310a5db738"),
        (.sha1, "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        (.sha256, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (
            .sha512,
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
    ]

    @Test("HMAC imports check RFC 2202 and 4231's HMACs under a configured key, salt first or password first, and never without the key")
    func hmacImports() throws {
        for (function, hex) in Self.jefeHMACs {
            let code = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
            let key = try HMACImportKey(function: function, key: Array("Jefe".utf8))
            let hasher = PasswordHasher(parameters: Self.cheap, hmacImportKeys: [key])
            let saltFirst = try PasswordHasher.hmacHash(code, salt: Array("what do ya ".utf8), key: key)
            #expect(hasher.reads(saltFirst) && !PasswordHasher(parameters: Self.cheap).reads(saltFirst), "\(function)")
            #expect(hasher.verify("want for nothing?", against: saltFirst) == .matches(needsRehash: true), "\(function)")
            #expect(hasher.verify("want for nothing", against: saltFirst) == .doesNotMatch, "\(function)")
            let passwordFirst = try PasswordHasher.hmacHash(code, salt: Array("for nothing?".utf8), key: key, order: .passwordFirst)
            #expect(hasher.verify("what do ya want ", against: passwordFirst) == .matches(needsRehash: true), "\(function)")
            // Without its key configured the hash is unusable, never a match.
            #expect(PasswordHasher(parameters: Self.cheap).verify("want for nothing?", against: saltFirst) == .unusableHash)
            let otherKey = try HMACImportKey(function: function, key: Array("Joe".utf8))
            #expect(
                PasswordHasher(parameters: Self.cheap, hmacImportKeys: [otherKey]).verify("want for nothing?", against: saltFirst) == .unusableHash)
        }
        #expect(throws: PasswordHashError.self) { try HMACImportKey(function: .sha256, key: []) }
    }
}
