import Foundation
import OTPPostgresTestServer
import OTPTestUtilities
import Testing

/// The enrollment commands with `--db postgres://…`, against the PostgreSQL cluster
/// `bash Tests/test.sh` starts (each test in a schema of its own); without the cluster they fail.
@Suite("Enrollment commands on PostgreSQL", .serialized)
struct PostgresCommandTests {
    static let password = "s3cret-Pa55word"
    static let replayed =
        "totp signin: wrong or already used verification code: enter the code the authenticator app shows now [INVALID_CODE, 17044]\n"

    /// Checks that a failure is one line naming the command and `expected`, without the URL
    /// given or the password.
    static func expectOneLine(_ run: ProcessOutput, status: Int32, command: String, containing expected: String, url: String) {
        #expect(run.status == status, "\(run)")
        #expect(run.stderr.hasPrefix("totp \(command): ") && run.stderr.hasSuffix("\n"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!run.stderr.contains(url) && !run.stderr.contains(password), "\(run.stderr)")
        #expect(run.stdout == "")
    }

    @Test("enroll, sign in with the next code, refuse its replay and list the factor: all in the PostgreSQL schema")
    func enrollAndSignIn() async throws {
        try await Scratch.onPostgres { scratch, database in
            let store = ["--db", scratch.database, "--key-file", scratch.keyFile]
            let enrolled = try await scratch.enroll(user: "alice", email: "alice@example.com", firstAnswer: "000000")
            try #require(enrolled.status == 0, "\(enrolled.stderr)")
            #expect(enrolled.stderr.contains("wrong verification code"), "\(enrolled.stderr)")
            // The hint repeats --db without the URL, which may hold a password.
            #expect(enrolled.stdout.contains("sign in with: totp signin --db postgresql://… --user alice --key-file \(scratch.keyFile)"))
            #expect(try await database.rowCount("factors") == 1, "the factor is in this test's schema")
            #expect(!FileManager.default.fileExists(atPath: scratch.database), "no SQLite file named after the URL")

            let next = try await oathtool(base32: enrolled.key, at: Int64(Date().timeIntervalSince1970) + 30)
            let signIn = try await scratch.run(["signin"] + store + ["--user", "alice", "--code", next])
            #expect(signIn.status == 0, "\(signIn.stderr)")
            #expect(signIn.stdout.hasPrefix("Signed in as alice with TOTP second factor "))
            let replay = try await scratch.run(["signin"] + store + ["--user", "alice", "--code", next])
            #expect(replay.status == 1)
            #expect(replay.stderr == Self.replayed)

            let factors = try await scratch.run(["factors"] + store + ["--user", "alice"])
            #expect(factors.status == 0, "\(factors.stderr)")
            #expect(
                factors.stdout.wholeMatch(
                    of: #/[A-Za-z0-9]{15}  totp  [^\n]+  enrolled [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z  SHA1\/6\/30s\n/#) != nil,
                "\(factors)")
            #expect(!factors.stdout.contains(enrolled.key))
            let json = try await scratch.run(["factors"] + store + ["--user", "alice", "--json"])
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json)")
            #expect(listed.map { $0["factorID"] as? String } == ["totp"])

            let codes = try await scratch.run(["recovery-codes"] + store + ["--user", "alice"])
            #expect(codes.status == 0 && codes.stdout == "alice has no unused recovery codes.\n", "\(codes)")
        }
    }

    @Test("a user without a factor is named with the server, never the URL")
    func noFactor() async throws {
        try await Scratch.onPostgres { scratch, database in
            let run = try await scratch.run([
                "signin", "--db", scratch.database, "--key-file", scratch.keyFile, "--user", "nobody", "--code", "123456",
            ])
            let (directory, port, user) = try TestServer.settings()
            Self.expectOneLine(
                run, status: 1, command: "signin",
                containing:
                    "nobody has no second factor in \(user)@\(directory)/.s.PGSQL.\(port)/\(database.database): enroll one with `totp enroll --db postgresql://… --user nobody --email ADDRESS`",
                url: scratch.database)
        }
    }

    @Test("reseal moves every secret to a new key; afterwards the old key is not needed")
    func reseal() async throws {
        try await Scratch.onPostgres { scratch, _ in try await scratch.checkReseal() }
    }

    @Test("account create prints a uid that account show finds by uid and by address")
    func accounts() async throws {
        try await Scratch.onPostgres { scratch, database in
            let store = ["--db", scratch.database, "--key-file", scratch.keyFile]
            let created = try await scratch.run(
                ["account", "create"] + store + ["--email", "Ada@Example.com", "--password-file", "-"], input: Self.password + "\n")
            try #require(created.status == 0, "\(created.stderr)")
            let uid = created.stdout.trimmingCharacters(in: .newlines)
            #expect(try await database.rowCount("accounts") == 1)

            let byUID = try await scratch.run(["account", "show"] + store + ["--user", uid, "--json"])
            #expect(byUID.status == 0, "\(byUID.stderr)")
            let account = try #require(try JSONSerialization.jsonObject(with: Data(byUID.stdout.utf8)) as? [String: Any], "\(byUID)")
            #expect(account["uid"] as? String == uid && account["email"] as? String == "ada@example.com")
            #expect((account["providerData"] as? [[String: Any]])?.map { $0["providerId"] as? String } == ["password"])
            #expect(!byUID.stdout.contains(Self.password))

            let byAddress = try await scratch.run(["account", "show"] + store + ["--email", "ada@example.com"])
            #expect(byAddress.status == 0 && byAddress.stdout.hasPrefix("uid: \(uid)\n"), "\(byAddress)")
            let signedIn = try await scratch.run(
                ["account", "signin"] + store + ["--email", "ada@example.com", "--password-file", "-"], input: Self.password + "\n")
            #expect(signedIn.stdout == "Signed in as \(uid) (ada@example.com) with password.\n", "\(signedIn)")

            let missing = try await scratch.run(["account", "show"] + store + ["--email", "nobody@example.com"])
            Self.expectOneLine(missing, status: 1, command: "account show", containing: "no account nobody@example.com in ", url: scratch.database)
        }
    }

    @Test(
        "a malformed or unsupported URL exits 64 with one line saying what is wrong, never the password, and creates no file",
        arguments: [
            ("postgres://user:\(password)@localhost:port5432/db", "invalid PostgreSQL URL: port"),
            ("postgresql://user:\(password)@localhost/db?sslmode=sometimes", "invalid PostgreSQL URL: sslmode"),
            // A / or ? in the password cuts the URL short: its pieces must not become a port or a parameter.
            ("postgres://user:12345/\(password)@localhost/db", "percent-encode"),
            ("postgres://user:pa?\(password)@localhost/db", "percent-encode"),
            ("postgres:/user:\(password)@localhost/db", "it must start with postgres:// or postgresql://"),
            // A scheme no store serves is refused, not taken for an SQLite file named after the URL.
            ("mysql://user:\(password)@localhost/db", "no store serves mysql:// URLs"),
        ])
    func malformedURL(_ url: String, expected: String) async throws {
        let scratch = try Scratch(database: url)
        let run = try await ProcessRunner.run(
            BuiltProduct.path("totp-enrollment"), ["factors", "--db", url, "--user", "u", "--key-file", scratch.keyFile],
            workingDirectory: scratch.directory)
        Self.expectOneLine(run, status: 64, command: "factors", containing: expected, url: url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory) == ["otpkit.key"])
    }

    @Test("a server out of reach is one line and exit 74, without the password")
    func unreachable() async throws {
        let scratch = try Scratch(database: "postgres://someone:\(Self.password)@127.0.0.1:1/db?sslmode=disable")
        let run = try await scratch.run(["factors", "--db", scratch.database, "--user", "u", "--key-file", scratch.keyFile])
        Self.expectOneLine(
            run, status: 74, command: "factors", containing: "cannot reach PostgreSQL at someone@127.0.0.1:1/db", url: scratch.database)
    }

    @Test("libpq's variables give what the URL leaves out: the socket, port and user here")
    func environmentFillsTheURL() async throws {
        try await Scratch.onPostgres { scratch, database in
            let (directory, port, user) = try TestServer.settings()
            let url = "postgres:///\(database.database)?options=-c%20search_path%3D\(database.name)"
            // PGDATABASE names another database: the URL's wins.
            let environment = ["PGHOST": directory, "PGPORT": "\(port)", "PGUSER": user, "PGDATABASE": "otpkit_no_such_database"]
            let created = try await scratch.run(
                ["account", "create", "--db", url, "--key-file", scratch.keyFile, "--anonymous"], environment: environment)
            #expect(created.status == 0, "\(created.stderr)")
            #expect(try await database.rowCount("accounts") == 1, "the account is in this test's schema")

            let badPort = try await scratch.run(
                ["factors", "--db", url, "--key-file", scratch.keyFile, "--user", "u"], environment: ["PGPORT": "port5432"])
            Self.expectOneLine(badPort, status: 64, command: "factors", containing: "invalid PGPORT: port port5432 is not a number", url: url)
        }
    }

    @Test("the password can come from PGPASSWORD; a wrong one is a refused login that names the user, not the password")
    func passwordFromEnvironment() async throws {
        try await Scratch.onPostgres { scratch, database in
            try await database.grant(to: "otpkit_password")
            let port = try TestServer.settings().port
            let url = "postgres://otpkit_password@127.0.0.1:\(port)/\(database.database)?sslmode=disable&options=-c%20search_path%3D\(database.name)"
            let command = ["account", "create", "--db", url, "--key-file", scratch.keyFile, "--anonymous"]
            let created = try await scratch.run(command, environment: ["PGPASSWORD": "otpkit-test-password"])
            #expect(created.status == 0, "\(created.stderr)")
            #expect(try await database.rowCount("accounts") == 1)

            let wrong = try await scratch.run(command, environment: ["PGPASSWORD": Self.password])
            Self.expectOneLine(
                wrong, status: 74, command: "account create",
                containing: "PostgreSQL at otpkit_password@127.0.0.1:\(port)/\(database.database) refused the login (password authentication failed",
                url: url)
        }
    }
}
