import Foundation
import OTPLoopbackHTTP
import OTPTestUtilities
import Testing

/// `totp account`: the first factors and linking at a terminal, against a Google that is a test
/// identity provider on loopback.
@Suite("totp account", .serialized)
struct AccountCommandTests {
    static let password = "correct horse battery"

    /// The options that check Google's tokens against the test provider.
    static func google(_ provider: TestIdentityProvider, tokenFile: String) -> [String] {
        [
            "--provider", "google.com", "--id-token-file", tokenFile, "--audience", provider.audience, "--issuer", provider.issuer, "--jwks",
            provider.jwksURL,
        ]
    }

    /// Writes an ID token for the Google identity `subject` and returns the file.
    static func token(_ provider: TestIdentityProvider, _ scratch: Scratch, subject: String, email: String) async throws -> String {
        let file = scratch.directory + "/\(subject).jwt"
        try await provider.idToken(subject: subject, email: email).write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    static func showJSON(_ scratch: Scratch, user: String) async throws -> [String: Any] {
        let run = try await scratch.run(["account", "show", "--db", scratch.database, "--key-file", scratch.keyFile, "--user", user, "--json"])
        try #require(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
    }

    static func providerIDs(_ account: [String: Any]) -> [String] {
        (account["providerData"] as? [[String: Any]] ?? []).compactMap { $0["providerId"] as? String }
    }

    @Test("create prints the uid; signin takes the password from standard input; a wrong one exits 1 naming no secret")
    func passwordAccount() async throws {
        let scratch = try Scratch()
        let store = ["--db", scratch.database, "--key-file", scratch.keyFile]
        let created = try await scratch.run(
            ["account", "create"] + store + ["--email", "Ada@Example.com", "--password-file", "-"], input: Self.password + "\n")
        try #require(created.status == 0, "\(created.stderr)")
        let uid = created.stdout.trimmingCharacters(in: .newlines)
        #expect(uid.count >= 15 && !uid.contains(" "), "\(created.stdout)")

        let signedIn = try await scratch.run(
            ["account", "signin"] + store + ["--email", "ada@example.com", "--password-file", "-"], input: Self.password + "\n", program: "totp")
        #expect(signedIn.status == 0, "\(signedIn.stderr)")
        #expect(signedIn.stdout == "Signed in as \(uid) (ada@example.com) with password.\n")

        let wrong = try await scratch.run(
            ["account", "signin"] + store + ["--email", "ada@example.com", "--password-file", "-"], input: "Tr0ub4dor&3\n")
        #expect(wrong.status == 1)
        #expect(wrong.stderr == "totp account signin: the email address or the password is wrong [INVALID_LOGIN_CREDENTIALS, 17004]\n")
        let unknown = try await scratch.run(["account", "signin"] + store + ["--email", "nobody@example.com", "--password-file", "-"], input: "x\n")
        #expect(unknown.stderr == wrong.stderr, "no account discovery through the message")

        let file = scratch.directory + "/password"
        try "Tr0ub4dor&3\n".write(toFile: file, atomically: true, encoding: .utf8)
        let taken = try await scratch.run(["account", "create"] + store + ["--email", "ada@example.com", "--password-file", file])
        #expect(taken.status == 1 && taken.stderr.contains("EMAIL_EXISTS"), "\(taken.stderr)")
        let account = try await Self.showJSON(scratch, user: uid)
        #expect(account["email"] as? String == "ada@example.com" && account["emailVerified"] as? Bool == false)
        #expect(Self.providerIDs(account) == ["password"])
        let database = try Data(contentsOf: URL(fileURLWithPath: scratch.database))
        #expect(database.range(of: Data(Self.password.utf8)) == nil)
    }

    @Test("link Google, sign in with either; elsewhere it is credentialAlreadyInUse; after unlink Google signs in no more")
    func linkGoogle() async throws {
        let scratch = try Scratch()
        let provider = try await TestIdentityProvider.start()
        do {
            try await linkGoogle(scratch, provider)
        } catch {
            try? await provider.stop()
            throw error
        }
        try await provider.stop()
    }

    func linkGoogle(_ scratch: Scratch, _ provider: TestIdentityProvider) async throws {
        let store = ["--db", scratch.database, "--key-file", scratch.keyFile]
        let uid = try await scratch.run(
            ["account", "create"] + store + ["--email", "ada@example.com", "--password-file", "-"], input: Self.password + "\n"
        ).stdout.trimmingCharacters(in: .newlines)
        let token = try await Self.token(provider, scratch, subject: "g-ada", email: "ada@example.com")

        let linked = try await scratch.run(["account", "link"] + store + ["--user", uid] + Self.google(provider, tokenFile: token))
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == "Linked google.com to \(uid); its providers: google.com, password.\n")
        let account = try await Self.showJSON(scratch, user: uid)
        #expect(Self.providerIDs(account) == ["google.com", "password"] && account["emailVerified"] as? Bool == true)

        // The token through standard input this time.
        let tokenText = try String(contentsOfFile: token, encoding: .utf8)
        let byGoogle = try await scratch.run(["account", "signin"] + store + Self.google(provider, tokenFile: "-"), input: tokenText)
        #expect(byGoogle.stdout == "Signed in as \(uid) (ada@example.com) with google.com.\n", "\(byGoogle.stderr)")
        let byPassword = try await scratch.run(
            ["account", "signin"] + store + ["--email", "ada@example.com", "--password-file", "-"], input: Self.password + "\n")
        #expect(byPassword.stdout.hasPrefix("Signed in as \(uid) "), "\(byPassword.stderr)")

        let bob = try await scratch.run(["account", "create"] + store + ["--anonymous"]).stdout.trimmingCharacters(in: .newlines)
        let refused = try await scratch.run(["account", "link"] + store + ["--user", bob] + Self.google(provider, tokenFile: token))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("linked to an account already") && refused.stderr.contains("17025"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(tokenText.prefix(20)))

        let unlinked = try await scratch.run(["account", "unlink"] + store + ["--user", uid, "--provider", "google.com"], program: "totp")
        #expect(unlinked.stdout == "Unlinked google.com from \(uid); its providers: password.\n", "\(unlinked.stderr)")
        let afterwards = try await scratch.run(["account", "signin"] + store + Self.google(provider, tokenFile: token))
        #expect(afterwards.status == 1 && afterwards.stderr.contains("17012"), "\(afterwards.stderr)")
        let again = try await scratch.run(["account", "unlink"] + store + ["--user", uid, "--provider", "google.com"])
        #expect(again.status == 1 && again.stderr.contains("NO_SUCH_PROVIDER"), "\(again.stderr)")

        // A new Google identity makes a new account, as Firebase does.
        let newToken = try await Self.token(provider, scratch, subject: "g-cy", email: "cy@example.com")
        let fresh = try await scratch.run(["account", "signin"] + store + Self.google(provider, tokenFile: newToken))
        #expect(fresh.stdout.hasPrefix("Created account ") && fresh.stdout.hasSuffix(" (cy@example.com) and signed in with google.com.\n"))
    }

    @Test("an anonymous account links a password and keeps its uid; a TOTP account's signin needs the code")
    func anonymousUpgradeAndSecondFactor() async throws {
        let scratch = try Scratch()
        let store = ["--db", scratch.database, "--key-file", scratch.keyFile]
        let guest = try await scratch.run(["account", "create"] + store + ["--anonymous"]).stdout.trimmingCharacters(in: .newlines)
        #expect(Self.providerIDs(try await Self.showJSON(scratch, user: guest)).isEmpty)
        let linked = try await scratch.run(
            ["account", "link"] + store + ["--user", guest, "--email", "guest@example.com", "--password-file", "-"], input: Self.password + "\n")
        #expect(linked.stdout == "Linked password to \(guest); its providers: password.\n", "\(linked.stderr)")

        let enrolled = try await scratch.enroll(user: guest, email: "guest@example.com")
        try #require(enrolled.status == 0, "\(enrolled.stderr)")
        let signIn = ["account", "signin"] + store + ["--email", "guest@example.com", "--password-file", "-"]
        let withoutCode = try await scratch.run(signIn, input: Self.password + "\n")
        #expect(withoutCode.status == 1 && withoutCode.stderr.contains("no code entered"), "\(withoutCode.stderr)")
        #expect(withoutCode.stderr.hasPrefix("guest@example.com has a TOTP second factor "), "\(withoutCode.stderr)")
        // The next step's code: the enrollment spent this one, and the window takes the next.
        let code = try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
        let withCode = try await scratch.run(signIn + ["--code", code], input: Self.password + "\n")
        #expect(withCode.status == 0, "\(withCode.stderr)")
        #expect(withCode.stdout.hasPrefix("Signed in as \(guest) (guest@example.com) with password and TOTP second factor "))
    }

    @Test(
        "bad input: one line, exit 64 or 66, nothing created",
        arguments: [
            (["account", "create", "--email", "a@example.com", "--anonymous"], 64, "--email and --anonymous are alternatives"),
            (["account", "create", "--email", "a@example.com"], 64, "no password: no terminal to ask for the password"),
            (["account", "create", "--email", "not-an-address", "--password-file", "-"], 64, "INVALID_EMAIL"),
            (["account", "create", "--email", "a@example.com", "--password-file", "-"], 64, "at least 6 characters"),
            (["account", "signin", "--email", "a@example.com", "--provider", "google.com"], 64, "--email and --provider are alternatives"),
            (["account", "signin", "--provider", "google.com", "--id-token-file", "t"], 64, "--provider needs --audience"),
            (["account", "signin", "--provider", "oidc.x", "--id-token-file", "t", "--audience", "a"], 64, "needs --issuer URL and --jwks"),
            (
                ["account", "signin", "--provider", "google.com", "--id-token-file", "/nonexistent/t", "--audience", "a"], 66,
                "cannot read the ID token file"
            ),
            (["account", "link", "--user", "nobody", "--email", "a@example.com", "--password-file", "-"], 1, "no account nobody"),
            (["account", "show", "--user", "nobody", "--email", "a@example.com"], 64, "give --user UID or --email ADDRESS"),
        ] as [([String], Int32, String)])
    func badInput(arguments: [String], status: Int32, message: String) async throws {
        let scratch = try Scratch()
        let run = try await scratch.run(arguments + ["--db", scratch.database, "--key-file", scratch.keyFile], input: "short\n")
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("totp account ") && run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stdout.isEmpty)
        if FileManager.default.fileExists(atPath: scratch.database) {
            let listing = try await scratch.run([
                "account", "show", "--db", scratch.database, "--key-file", scratch.keyFile, "--email", "a@example.com",
            ])
            #expect(listing.status == 1, "an account was created: \(listing.stdout)")
        }
    }
}
