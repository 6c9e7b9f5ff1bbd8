import Foundation
import OTPTestUtilities
import Testing

/// `totp account export`: every account as `firebase auth:export` writes JSON, with password hashes
/// in the form Firebase's STANDARD_SCRYPT reads, checked by CPython's own scrypt.
@Suite("Exporting accounts")
struct AccountExportTests {
    static let password = "correct horse battery"

    /// An account with a password and a phone factor, one with a password and a TOTP factor, and an
    /// anonymous one: their uids.
    static func accounts(_ scratch: Scratch) async throws -> (ada: String, bob: String, anonymous: String) {
        let (ada, bob, anonymous, _) = try await accountsAndKey(scratch)
        return (ada, bob, anonymous)
    }

    /// ``accounts(_:)``, and the key of Bob's TOTP factor as enrollment showed it.
    static func accountsAndKey(_ scratch: Scratch) async throws -> (ada: String, bob: String, anonymous: String, bobKey: String) {
        let common = ["--db", scratch.database, "--key-file", scratch.keyFile]
        func created(_ arguments: [String], input: String? = nil) async throws -> String {
            let run = try await scratch.run(["account", "create"] + arguments + common, input: input)
            try #require(run.status == 0, "\(run.stderr)")
            return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let ada = try await created(["--email", "Ada@Example.com", "--password-file", "-"], input: Self.password + "\n")
        let bob = try await created(["--email", "bob@example.com", "--password-file", "-"], input: "another long one\n")
        let anonymous = try await created(["--anonymous"])
        let phone = try await scratch.run(
            [
                "enroll", "--user", ada, "--email", "ada@example.com", "--phone", PhoneCommandTests.testNumber, "--code",
                PhoneCommandTests.testCode, "--name", "Work phone",
            ] + common + PhoneCommandTests.testNumberOption)
        try #require(phone.status == 0, "\(phone.stderr)")
        let totp = try await scratch.enroll(user: bob, email: "bob@example.com")
        try #require(totp.status == 0, "\(totp.stderr)")
        return (ada, bob, anonymous, totp.key)
    }

    @Test("firebase-tools' JSON, keys in its order, a hash CPython's scrypt reproduces, and the import options said")
    func exportsFirebaseToolsJSON() async throws {
        let scratch = try Scratch()
        let (ada, bob, anonymous) = try await Self.accounts(scratch)
        let file = scratch.directory + "/users.json"
        let exported = try await scratch.run(["account", "export", "--db", scratch.database, "--key-file", scratch.keyFile, file])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stderr.isEmpty, "\(exported.stderr)")
        #expect(
            exported.stdout == """
                Exported 3 accounts.
                2 passwords (ln=16,r=8,p=1): firebase auth:import \(file) --hash-algo=STANDARD_SCRYPT --mem-cost=65536 --block-size=8 --parallelization=1 --dk-len=32
                1 TOTP factor was not exported: Firebase's import takes phone factors only (--with-totp-secrets writes those of SHA-1, 6 digits and 30 seconds for another OTPKit).

                """)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "the file holds password hashes")

        let text = try String(contentsOfFile: file, encoding: .utf8)
        let users = try #require(
            (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["users"] as? [[String: Any]], "\(text)")
        let byID = Dictionary(uniqueKeysWithValues: users.map { ($0["localId"] as? String ?? "", $0) })
        let record = try #require(byID[ada])
        #expect(record["email"] as? String == "ada@example.com")
        #expect(record["emailVerified"] as? Bool == false)
        #expect(record["disabled"] as? Bool == false)
        let mfa = try #require(record["mfaInfo"] as? [[String: Any]])
        #expect(mfa.count == 1)
        #expect(mfa.first?["phoneInfo"] as? String == PhoneCommandTests.testNumber)
        #expect(mfa.first?["displayName"] as? String == "Work phone")
        #expect(byID[anonymous]?["passwordHash"] == nil)
        #expect(byID[bob]?["mfaInfo"] == nil, "TOTP factors are not exported")
        // firebase-tools writes its keys in this order; the line of Ada's record shows ours.
        let line = try #require(text.split(separator: "\n").first { $0.contains(ada) })
        let order = [
            "localId", "email", "emailVerified", "passwordHash", "salt", "lastSignedInAt", "createdAt", "disabled", "mfaInfo", "providerUserInfo",
        ]
        let positions = order.map { line.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions.map { $0! } == positions.map { $0! }.sorted(), "\(line)")

        // The exported key and salt are scrypt's, as STANDARD_SCRYPT computes it: CPython's hashlib agrees.
        let check = try await ProcessRunner.run(
            try ExternalTool.debianPython3.path(),
            [
                "-c",
                "import base64, hashlib, sys; print(hashlib.scrypt(sys.argv[1].encode(), salt=base64.b64decode(sys.argv[2]), n=65536, r=8, p=1, dklen=32, maxmem=2**27) == base64.b64decode(sys.argv[3]))",
                Self.password, try #require(record["salt"] as? String), try #require(record["passwordHash"] as? String),
            ])
        #expect(check.stdout == "True\n", "\(check)")
    }

    @Test("an existing file is never written over; - writes the JSON to standard output and the summary to standard error")
    func neverOverwritesAndWritesToStandardOutput() async throws {
        let scratch = try Scratch()
        _ = try await Self.accounts(scratch)
        let file = scratch.directory + "/users.json"
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try await scratch.run(["account", "export", "--db", scratch.database, "--key-file", scratch.keyFile, file])
        #expect(refused.status == 73, "\(refused)")
        #expect(refused.stderr == "totp account export: \(file) exists: remove it or choose another name\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n")

        let toOutput = try await scratch.run(["account", "export", "--db", scratch.database, "--key-file", scratch.keyFile, "-"])
        #expect(toOutput.status == 0, "\(toOutput.stderr)")
        let users = (try JSONSerialization.jsonObject(with: Data(toOutput.stdout.utf8)) as? [String: Any])?["users"] as? [Any]
        #expect(users?.count == 3, "\(toOutput.stdout)")
        #expect(toOutput.stderr.hasPrefix("Exported 3 accounts.\n"), "\(toOutput.stderr)")
    }
}
