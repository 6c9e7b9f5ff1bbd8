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
}
