import Foundation
import Logging
import OTPAuthentication
import OTPAuthenticationDatabase
import OTPSealing
import OTPTestUtilities
import Testing

/// `totp account import`: the files of `firebase auth:export`, JSON and CSV, with the hash options of
/// `firebase auth:import`.
@Suite("Importing accounts")
struct AccountImportTests {
    /// The user of firebase/scrypt's README (its password is `user1password` under the project
    /// parameters of `FirebaseHashConfigExample`) as a line of firebase-tools' CSV: its 52 columns
    /// and the comma it ends with, a display name holding a comma and quotes.
    static var firebaseCSVLine: String {
        let values = [
            0: "fb-1", 1: "fb@example.com", 2: "true", 3: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
            4: "42xEC+ixf3L2lw==", 5: #""Lovelace, Ada ""the first""""#, 7: "g-1", 8: "fb@gmail.com", 23: "1700000000000", 24: "1700000500000",
            25: "+12015550123", 26: "false", 27: #""{""admin"":true}""#,
        ]
        return (0..<52).map { values[$0] ?? "" }.joined(separator: ",") + ","
    }

    @Test("Firebase's own scrypt hashes from a CSV line: the user, its provider, phone and claims, and its password with the project's parameters")
    func importsFirebaseScryptCSV() async throws {
        let scratch = try Scratch()
        let file = scratch.directory + "/users.csv"
        try (Self.firebaseCSVLine + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let keyFile = scratch.directory + "/signer.key"
        try (FirebaseHashConfigExample.signerKey + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
        let run = try await scratch.run(
            [
                "account", "import", "--db", scratch.database, "--key-file", scratch.keyFile, "--hash-algo", "SCRYPT", "--hash-key-file", keyFile,
                "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "14", file,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Imported 1 account.\nTheir passwords are the Firebase project's scrypt hashes"), "\(run.stdout)")

        let account = try await AccountCommandTests.showJSON(scratch, user: "fb-1")
        #expect(account["email"] as? String == "fb@example.com" && account["emailVerified"] as? Bool == true, "\(account)")
        #expect(account["displayName"] as? String == #"Lovelace, Ada "the first""#, "\(account)")
        #expect(Set(AccountCommandTests.providerIDs(account)) == ["password", "google.com", "phone"], "\(account)")

        // The password checks with the project's parameters, and only with them.
        try await Self.withService(scratch, firebase: [try FirebaseHashConfig(parsing: FirebaseHashConfigExample.consoleText)]) { service in
            await #expect(throws: AuthError.self) { try await service.signIn(withEmail: "fb@example.com", password: "user1passwore") }
            let user = try await service.signIn(withEmail: "fb@example.com", password: "user1password")
            #expect(user.uid == "fb-1")
            #expect(user.customAttributes == #"{"admin":true}"#)
        }
    }

    @Test("export, then import into other databases with the options export printed: JSON with phone factors, CSV, JSON with TOTP secrets")
    func roundTripsThroughExport() async throws {
        let source = try Scratch()
        let (ada, bob, _, key) = try await AccountExportTests.accountsAndKey(source)
        // Exports to `name` with `options`, imports into a new database and returns it.
        func moved(_ name: String, _ options: [String] = []) async throws -> (Scratch, exported: String, imported: ProcessOutput) {
            let file = source.directory + "/" + name
            let exported = try await source.run(["account", "export", "--db", source.database, "--key-file", source.keyFile] + options + [file])
            try #require(exported.status == 0, "\(exported.stderr)")
            // The line export printed, with `firebase auth:import FILE` replaced by our command.
            let hashOptions =
                try #require(exported.stdout.split(separator: "\n").first { $0.contains("--hash-algo") }, "\(exported.stdout)")
                .components(separatedBy: file).last?.split(separator: " ").map(String.init) ?? []
            let target = try Scratch()
            let imported = try await target.run(["account", "import", "--db", target.database, "--key-file", target.keyFile] + hashOptions + [file])
            #expect(imported.status == 0 && imported.stdout == "Imported 3 accounts.\n", "\(imported)")
            // Importing the same file again makes nothing, says why for each, and exits 65.
            if name == "users.json" {
                let again = try await target.run(["account", "import", "--db", target.database, "--key-file", target.keyFile] + hashOptions + [file])
                #expect(again.status == 65, "\(again)")
                #expect(again.stderr == "totp account import: 3 of 3 accounts were not imported (listed above); the others were\n")
                #expect(again.stdout.contains("(\(ada)): localId belongs to an existing account"), "\(again.stdout)")
            }
            return (target, exported.stdout, imported)
        }
        func signsIn(_ target: Scratch, _ email: String, _ password: String, as uid: String) async throws {
            let signedIn = try await target.run(
                ["account", "signin", "--db", target.database, "--key-file", target.keyFile, "--email", email, "--password-file", "-"],
                input: password + "\n")
            #expect(signedIn.status == 0 && signedIn.stdout.contains(uid), "\(signedIn)")
        }

        let (json, _, _) = try await moved("users.json")
        try await signsIn(json, "bob@example.com", "another long one", as: bob)
        let factors = try await json.run(["factors", "--db", json.database, "--key-file", json.keyFile, "--user", ada])
        #expect(factors.stdout.contains("Work phone"), "\(factors)")

        let (csv, csvSummary, _) = try await moved("users.csv")
        #expect(csvSummary.contains("1 phone factor was not exported: CSV has no column for second factors (JSON has).\n"), "\(csvSummary)")
        #expect(csvSummary.contains("1 TOTP factor was not exported: CSV has no column for second factors.\n"), "\(csvSummary)")
        let lines = try String(contentsOfFile: source.directory + "/users.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.hasSuffix(",") && $0.split(separator: ",", omittingEmptySubsequences: false).count == 53 })
        try await signsIn(csv, "ada@example.com", AccountExportTests.password, as: ada)

        let refused = try await source.run(
            ["account", "export", "--db", source.database, "--key-file", source.keyFile, "--with-totp-secrets", source.directory + "/u.csv"])
        #expect(refused.status == 64 && refused.stderr.contains("CSV has no column"), "\(refused)")
        let (totp, totpSummary, _) = try await moved("secrets.json", ["--with-totp-secrets"])
        #expect(!totpSummary.contains("TOTP factor"), "\(totpSummary)")
        let sealer = try SecretSealer(current: SealingKey(bytes: Self.bytes(hex: totp.keyHex)))
        let store = try await DatabaseLocation(totp.database).open(sealer: sealer, poolSize: 1, logger: Logger(label: "test"))
        let totpFactors = try await store.factors(userID: bob)
        try await store.close()
        #expect(totpFactors.map(\.secret.base32) == [key.uppercased()], "the secret enrollment showed, sealed under the new database's key")
    }

    @Test("a user that cannot be made is listed and the others are made; without --hash-algo passwords are left out")
    func partialImportAndMissingHashAlgorithm() async throws {
        let scratch = try Scratch()
        let file = scratch.directory + "/users.json"
        let users = """
            {"users":[
              {"localId":"u-1","email":"one@example.com","passwordHash":"aGFzaA==","salt":"c2FsdA=="},
              {"localId":"u-2","email":"one@example.com"},
              {"localId":"u-3","email":"three@example.com","customAttributes":"{\\"iss\\":1}"},
              {"localId":"u-4","phoneNumber":"+442079460958","createdAt":"1700000000000"}
            ]}
            """
        try users.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await scratch.run(["account", "import", "--db", scratch.database, "--key-file", scratch.keyFile, file])
        #expect(run.status == 65, "\(run)")
        #expect(
            run.stdout == """
                Imported 2 accounts.
                Not imported: user 2 (u-2): email exists in other account in database
                Not imported: user 3 (u-3): iss is a claim name ID tokens use themselves: choose another name
                1 password hash was left out for want of --hash-algo: those users reset their passwords.

                """)
        #expect(run.stderr == "totp account import: 2 of 4 accounts were not imported (listed above); the others were\n")
        let one = try await AccountCommandTests.showJSON(scratch, user: "u-1")
        #expect(AccountCommandTests.providerIDs(one).isEmpty, "no password: \(one)")
        let four = try await AccountCommandTests.showJSON(scratch, user: "u-4")
        #expect(AccountCommandTests.providerIDs(four) == ["phone"], "\(four)")
    }

    @Test("more users than one batch: a progress line on a terminal's standard error, redrawn per batch, and none without a terminal")
    func progressOnATerminal() async throws {
        let users = (1...2_500).map { #"{"localId":"p-\#($0)","email":"p\#($0)@example.com"}"# }
        let body = #"{"users":[\#(users.joined(separator: ","))]}"#
        let plain = try Scratch()
        let file = plain.directory + "/users.json"
        try body.write(toFile: file, atomically: true, encoding: .utf8)
        let piped = try await plain.run(["account", "import", "--db", plain.database, "--key-file", plain.keyFile, file])
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
        #expect(piped.stdout == "Imported 2500 accounts.\n")

        // util-linux `script` gives the command a pseudo-terminal, which carries both streams.
        let terminal = try Scratch()
        let command = try [
            BuiltProduct.path("totp-enrollment"), "account", "import", "--db", terminal.database, "--key-file", terminal.keyFile, file,
        ]
        let run = try await ProcessRunner.run(
            try ExternalTool.script.path(), ["-qec", command.map(ProcessRunner.shellQuoted).joined(separator: " "), "/dev/null"])
        #expect(run.status == 0, "\(run)")
        let shown = run.stdout.replacing("\r\n", with: "\n")
        #expect(
            shown == "\rimported 1000 of 2500 users\rimported 2000 of 2500 users\rimported 2500 of 2500 users\nImported 2500 accounts.\n",
            "\(shown.debugDescription)")
        let last = try await AccountCommandTests.showJSON(terminal, user: "p-2500")
        #expect(last["email"] as? String == "p2500@example.com", "\(last)")
    }

    @Test("bad files and options: one line on standard error, the right status, nothing imported")
    func refusesBadInput() async throws {
        let scratch = try Scratch()
        let store = ["--db", scratch.database, "--key-file", scratch.keyFile]
        let csv = scratch.directory + "/users.csv"
        try "u-1,\"open@example.com,true\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let unclosed = try await scratch.run(["account", "import"] + store + [csv])
        #expect(unclosed.status == 65)
        #expect(unclosed.stderr == "totp account import: line 1: a quoted field is not closed\n")

        let json = scratch.directory + "/users.json"
        try #"{"users":[{"localId":"u-1","createdAt":"yesterday"}]}"#.write(toFile: json, atomically: true, encoding: .utf8)
        let malformed = try await scratch.run(["account", "import"] + store + [json])
        #expect(malformed.status == 65)
        #expect(malformed.stderr == "totp account import: the file is not the JSON of firebase auth:export: users[0].createdAt has the wrong type\n")

        let noKey = try await scratch.run(["account", "import"] + store + ["--hash-algo", "SCRYPT", "--rounds", "8", "--mem-cost", "14", json])
        #expect(noKey.status == 64)
        #expect(
            noKey.stderr.hasPrefix("totp account import: SCRYPT needs --hash-key (or --hash-key-file), --rounds and --mem-cost"), "\(noKey.stderr)")
        let unknown = try await scratch.run(["account", "import"] + store + ["--hash-algo", "ARGON2", json])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("totp account import: password hashes of ARGON2 are not imported"), "\(unknown.stderr)")
        let missing = try await scratch.run(["account", "import"] + store + [scratch.directory + "/none.json"])
        #expect(missing.status == 66, "\(missing)")
        if FileManager.default.fileExists(atPath: scratch.database) {
            try await Self.withService(scratch, firebase: []) { service in
                let details = try await service.administration.accountDetails(id: "u-1")
                #expect(details == nil)
            }
        }
    }

    /// A service on the scratch database whose passwords read the hashes of `firebase`'s projects.
    static func withService(_ scratch: Scratch, firebase: [FirebaseHashConfig], _ body: (MultiFactorService) async throws -> Void) async throws {
        let sealer = try SecretSealer(current: SealingKey(bytes: bytes(hex: scratch.keyHex)))
        let store = try await DatabaseLocation(scratch.database).open(sealer: sealer, poolSize: 1, logger: Logger(label: "test"))
        var configuration = MultiFactorConfiguration()
        configuration.passwords = PasswordSettings(firebaseHashConfigs: firebase)
        do {
            try await body(try MultiFactorService(configuration: configuration, store: store))
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    static func bytes(hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16) ?? 0 }
    }
}
