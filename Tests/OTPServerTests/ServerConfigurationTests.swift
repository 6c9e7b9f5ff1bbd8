import Foundation
import OTPTestUtilities
import Testing

/// `--config FILE` and the `OTPKIT_SERVER_*` variables, through the built executable: each
/// setting from the file, overridden by the environment, overridden by the command line; a file
/// or variable that cannot be used stops the server with one line naming the key and its line.
@Suite struct ServerConfigurationTests {
    /// The project `GET /v1/projects` answers and whether `key` is let in, as a client sees them.
    static func probe(_ server: ServerProcess, key: String) async throws -> (projectID: String?, status: Int) {
        let answer = try await server.get("/identitytoolkit.googleapis.com/v1/projects?key=\(key)")
        return (answer.json["projectId"] as? String, answer.status)
    }

    static func write(_ text: String, to path: String) throws {
        try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    @Test func theFileIsHonouredAndOverriddenByTheEnvironmentAndTheCommandLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("otpkit-server.json")
        try Self.write(
            """
            {
              "db": "\(directory.file("otpkit.sqlite"))",
              "key-file": "\(try ServerProcess.sealingKeyFile(in: directory))",
              "project-id": "from-file",
              "api-key": ["file-key", "second-file-key"],
              "port": 0,
              "emulator": false,
              "test-phone-number": ["+15555550100=123456"]
            }
            """, to: file)

        // The file alone.
        try await ServerProcess.with(commandLine: ["--config", file], projectID: "from-file", in: directory) { server async throws in
            #expect(try await Self.probe(server, key: "file-key") == ("from-file", 200))
            #expect(try await Self.probe(server, key: "second-file-key").status == 200)
            let refused = try await server.get("/identitytoolkit.googleapis.com/v1/projects?key=other-key")
            #expect(refused.errorMessage?.hasPrefix("API_KEY_INVALID") == true, "not under the emulator: \(refused.body)")
        }
        // The environment over the file, the file named by its variable; a list replaces the file's.
        let environment = ["OTPKIT_SERVER_CONFIG": file, "OTPKIT_SERVER_PROJECT_ID": "from-env", "OTPKIT_SERVER_API_KEY": "env-key other-env-key"]
        try await ServerProcess.with(commandLine: [], environment: environment, projectID: "from-env", in: directory) { server async throws in
            #expect(try await Self.probe(server, key: "other-env-key") == ("from-env", 200))
            #expect(try await Self.probe(server, key: "file-key").status == 400, "the environment's keys replace the file's")
        }
        // The command line over both.
        try await ServerProcess.with(
            commandLine: ["--config", file, "--project-id", "from-flag", "--emulator"], environment: environment, projectID: "from-flag",
            in: directory
        ) { server async throws in
            #expect(try await Self.probe(server, key: "any-key") == ("from-flag", 200), "--emulator over the file's false lets any key in")
            // The file's test number: its fixed code enrolls, and nothing reaches the emulator's outbox.
            let (_, idToken) = try await server.verifiedUser("cora@example.com")
            let started = try await server.post(
                ServerProcess.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+15555550100"}}"#)
            let sessionInfo = try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
            let listed = try await server.get("/emulator/v1/projects/from-flag/verificationCodes")
            #expect(listed.status == 200 && !listed.body.contains(sessionInfo), "\(listed.body)")
            let enrolled = try await server.post(
                ServerProcess.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"123456"}}"#)
            #expect(enrolled.status == 200, "\(enrolled.body)")
        }
        try await ServerProcess.with(
            commandLine: ["--config", file, "--api-key", "flag-key"], environment: ["OTPKIT_SERVER_EMULATOR": "yes"], projectID: "from-file",
            in: directory
        ) { server async throws in
            #expect(try await Self.probe(server, key: "any-key").status == 200, "the environment's emulator over the file's false")
        }
        try await ServerProcess.with(
            commandLine: ["--config", file, "--api-key", "flag-key", "--no-emulator"], environment: ["OTPKIT_SERVER_EMULATOR": "yes"],
            projectID: "from-file", in: directory
        ) { server async throws in
            #expect(try await Self.probe(server, key: "flag-key") == ("from-file", 200))
            #expect(try await Self.probe(server, key: "file-key").status == 400, "--api-key replaces the file's keys")
            #expect(try await Self.probe(server, key: "any-key").status == 400, "--no-emulator over the environment")
        }
    }

    @Test func helpNamesTheFileTheVariablesAndThePrecedence() async throws {
        let help = try await ProcessRunner.run(try BuiltProduct.path("otpkit-server"), ["--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--config <file>"), "\(help.stdout)")
        #expect(text.contains("$OTPKIT_SERVER_PROJECT_ID"))
        #expect(text.contains("The command line wins over the environment, the environment over the file"))
        #expect(text.contains("--test-phone-number <+15555550100=123456>"))
        #expect(text.contains("--sign-up-limit-per-ip <count>"), "\(help.stdout)")
        #expect(text.contains("--admin-token-file <file>"), "\(help.stdout)")
        #expect(!text.contains("not yet the abuse limits"), "the limits are in the file and the environment now")
    }

    /// One bad setting: what the file (or environment) says, and what the one line must say.
    struct Refusal: Sendable, CustomStringConvertible {
        let file: String?
        let environment: [String: String]
        let expected: [String]
        var description: String { file ?? "\(environment)" }
    }

    static let secret = "AIza-not-to-be-printed"

    static let refusals: [Refusal] = [
        Refusal(
            file: #"{"project-id": "demo",\#n  "api-key": "\#(secret)",\#n  "prot": 9099}"#, environment: [:],
            expected: [":3: unknown key \"prot\"", "port"]),
        Refusal(
            file: #"{\#n"api-key": ["\#(secret)"],\#n"port": "9099"}"#, environment: [:], expected: [":3: \"port\" must be a whole number"]),
        Refusal(file: #"{"emulator": 1, "api-key": "\#(secret)"}"#, environment: [:], expected: [":1: \"emulator\" must be true or false"]),
        Refusal(
            file: #"{"api-key": [42]}"#, environment: [:], expected: [":1: \"api-key\" must be an array of strings (or one string)"]),
        Refusal(file: "{\n\"api-key\": \"\(secret)\",\n\"port\": 0,,\n}", environment: [:], expected: ["is not valid JSON"]),
        Refusal(file: #"["db", "otpkit.sqlite"]"#, environment: [:], expected: ["must be one JSON object of options"]),
        Refusal(file: nil, environment: ["OTPKIT_SERVER_PORT": "ninety"], expected: ["$OTPKIT_SERVER_PORT must be a whole number"]),
        Refusal(file: nil, environment: ["OTPKIT_SERVER_PROJECTID": "demo"], expected: ["$OTPKIT_SERVER_PROJECTID must be one of"]),
        Refusal(
            file: #"{"api-key": "\#(secret)",\#n"trust-forwarded-for": true}"#, environment: [:],
            expected: [":2: \"trust-forwarded-for\" must be an array of strings (or one string)"]),
        Refusal(file: nil, environment: ["OTPKIT_SERVER_LIMIT_WINDOW": "soon"], expected: ["$OTPKIT_SERVER_LIMIT_WINDOW must be a whole number"]),
    ]

    @Test(arguments: refusals)
    func aBadFileOrVariableIsOneLineAndNoStart(_ refusal: Refusal) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("bad.json")
        if let text = refusal.file { try Self.write(text, to: file) }
        let arguments = refusal.file == nil ? [] : ["--config", file]
        let run = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            arguments + ["--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory)],
            environment: ServerProcess.serverEnvironment(refusal.environment))
        #expect(run.status != 0, "\(run)")
        #expect(run.stdout.isEmpty, "no port line: \(run)")
        let message = run.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.isEmpty && !message.contains("\n"), "one line: \(run.stderr)")
        for part in refusal.expected { #expect(message.contains(part), "\(message)") }
        if refusal.file != nil { #expect(message.contains(file), "names the file: \(message)") }
        #expect(!message.contains(Self.secret), "a value of the file printed: \(message)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("otpkit.sqlite")), "nothing opened")
    }

    /// `otpkit-server` under `--emulator` with `arguments` stops before it opens anything, with a
    /// usage error saying `expected`.
    static func expectRefusedAtStart(_ arguments: [String], saying expected: String, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            [
                "--emulator", "--project-id", "demo", "--db", directory.file("otpkit.sqlite"), "--key-file",
                try ServerProcess.sealingKeyFile(in: directory),
            ]
                + arguments,
            environment: ServerProcess.serverEnvironment([:]))
        #expect(run.status == 64 && run.stdout.isEmpty, "\(run)", sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains(expected), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: directory.file("otpkit.sqlite")), "nothing opened", sourceLocation: sourceLocation)
    }

    /// Passkey settings that cannot work stop the server before it opens anything, saying which
    /// and what to give instead.
    @Test(arguments: [
        (["--passkey-origin", "https://example.com"], "--passkey-origin configures passkeys for --passkey-rp-id: pass it too"),
        (["--passkey-rp-id", "example.com"], "no origins: give each origin ceremonies run on, such as https://example.com"),
        (
            ["--passkey-rp-id", "example.com", "--passkey-origin", "https://example.com", "--passkey-origin", "http://example.com"],
            "the origin \"http://example.com\" cannot use the RP ID example.com: give https://example.com or a subdomain (http only for localhost)"
        ),
        (["--passkey-rp-id", "https://example.com", "--passkey-origin", "https://example.com"], "is not a domain"),
    ])
    func passkeySettingsThatCannotWorkStopTheServer(_ arguments: [String], _ expected: String) async throws {
        try await Self.expectRefusedAtStart(arguments, saying: expected)
    }

    /// An account page provider that cannot work stops the server before it opens anything.
    @Test(arguments: [
        (["--account-page-provider", "google.com=/nonexistent/secret"], "needs --identity-provider google.com=… too"),
        (
            ["--identity-provider", "google.com=client-1", "--account-page-provider", "google.com=/nonexistent/secret"],
            "cannot read the client secret file /nonexistent/secret"
        ),
        (
            [
                "--identity-provider", "oidc.corp=client-1,https://login.corp.example,https://login.corp.example/jwks",
                "--account-page-provider", "oidc.corp=http://login.corp.example/authorize,https://login.corp.example/token",
            ],
            "the authorization endpoint http://login.corp.example/authorize is plain http"
        ),
        (
            [
                "--identity-provider", "oidc.corp=client-1,https://login.corp.example,https://login.corp.example/jwks",
                "--account-page-provider", "oidc.corp=https://login.corp.example/authorize",
            ],
            "give oidc.corp=AUTHORIZATION_URL,TOKEN_URL[,CLIENT_SECRET_FILE]"
        ),
    ])
    func accountPageProvidersThatCannotWorkStopTheServer(_ arguments: [String], _ expected: String) async throws {
        try await Self.expectRefusedAtStart(arguments, saying: expected)
    }

    @Test func aMissingFileAndMissingSettingsSayWhatToGive() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let executable = try BuiltProduct.path("otpkit-server")
        let missing = try await ProcessRunner.run(
            executable, ["--config", directory.file("nowhere.json")], environment: ServerProcess.serverEnvironment([:]))
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("cannot read the configuration file \(directory.file("nowhere.json")): no such file"), "\(missing)")

        let noDatabase = try await ProcessRunner.run(executable, ["--project-id", "demo"], environment: ServerProcess.serverEnvironment([:]))
        #expect(noDatabase.status == 64, "\(noDatabase)")
        #expect(noDatabase.stderr.contains(#"give the database: --db FILE|postgres://…, "db" in the --config file, or $OTPKIT_SERVER_DB"#))
    }
}
