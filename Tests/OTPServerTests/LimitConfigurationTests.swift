import Foundation
import OTPTestUtilities
import Testing

/// The abuse limits and timeouts from the `--config` file and the `OTPKIT_SERVER_*` variables, the
/// command line over the environment over the file, and the per-address limit on new accounts
/// (`accounts:signUp`), by default and as configured: past it, nothing is stored.
@Suite struct LimitConfigurationTests {
    /// A configuration file in `directory` for a server under the emulator on its own database,
    /// with `settings` (JSON members) added.
    static func configFile(in directory: TemporaryDirectory, _ settings: String) throws -> String {
        let file = directory.file("otpkit-server.json")
        try ServerConfigurationTests.write(
            """
            {
              "db": "\(directory.file("otpkit.sqlite"))",
              "key-file": "\(try ServerProcess.sealingKeyFile(in: directory))",
              "project-id": "demo-otpkit",
              "port": 0,
              "emulator": true,
              \(settings)
            }
            """, to: file)
        return file
    }

    /// A password sign-up for `email`, or an anonymous one for `nil`, from `forwardedFor` when given.
    static func signUp(_ server: ServerProcess, _ email: String?, forwardedFor: String? = nil) async throws -> ServerProcess.Answer {
        let body = email.map { #"{"email":"\#($0)","password":"long enough","returnSecureToken":true}"# } ?? #"{"returnSecureToken":true}"#
        return try await server.post(ClientEndpointTests.signUp, body, headers: forwardedFor.map { [("X-Forwarded-For", $0)] } ?? [])
    }

    static func accountExists(_ server: ServerProcess, _ email: String) async throws -> Bool {
        let found = try await server.post(
            "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:lookup", ServerProcess.json(["email": [email]]),
            headers: ServerProcess.ownerHeaders)
        try #require(found.status == 200, "\(found.body)")
        return found.json["users"] != nil
    }

    static func expectSignUpThrottled(_ answer: ServerProcess.Answer, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 400, "\(answer.body)", sourceLocation: sourceLocation)
        #expect(
            answer.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : too many new accounts from this address") == true, "\(answer.body)",
            sourceLocation: sourceLocation)
        #expect(answer.json.keys.contains("idToken") == false, sourceLocation: sourceLocation)
    }

    @Test func limitsAndTimeoutsFromTheFileTakeEffect() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try Self.configFile(
            in: directory,
            """
            "sign-up-limit-per-ip": 2, "sign-in-limit-per-account": 1, "limit-window": 3600, "trust-forwarded-for": ["127.0.0.1"],
            "idle-timeout": 300, "request-timeout": 2
            """)
        try await ServerProcess.with(commandLine: ["--config", file], projectID: "demo-otpkit", in: directory) { server in
            #expect(try await Self.signUp(server, "one@example.com", forwardedFor: "198.51.100.7").status == 200)
            #expect(try await Self.signUp(server, nil, forwardedFor: "198.51.100.7").status == 200, "an anonymous account")
            Self.expectSignUpThrottled(try await Self.signUp(server, "three@example.com", forwardedFor: "198.51.100.7"))
            Self.expectSignUpThrottled(try await Self.signUp(server, nil, forwardedFor: "198.51.100.7"))
            #expect(try await Self.accountExists(server, "three@example.com") == false, "the refused sign-up stored an account")
            #expect(try await server.throttled("sign_up", "ip") == 2)
            // The file's trust-forwarded-for: another address behind the proxy has its own count.
            #expect(try await Self.signUp(server, "four@example.com", forwardedFor: "198.51.100.8").status == 200)

            // The file's sign-in limit per account: one attempt.
            let signIn = #"{"email":"one@example.com","password":"long enough","returnSecureToken":true}"#
            #expect(try await server.post(ClientEndpointTests.signIn, signIn).status == 200)
            let second = try await server.post(ClientEndpointTests.signIn, signIn)
            #expect(second.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(second.body)")

            // The file's request timeout (the idle timeout alone would wait five minutes).
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
            let (sent, closed) = try await connection.trickle(every: .milliseconds(250), timeout: .seconds(60))
            #expect(closed, "the connection was still open after 60 s of trickling (\(sent) bytes)")
        }
    }

    @Test func theEnvironmentOverridesTheFileAndTheCommandLineBoth() async throws {
        // The environment over the file: one new account, not the file's two.
        let first = try TemporaryDirectory()
        defer { first.remove() }
        // Five seconds, not one: the test's HTTP client keeps its connection between requests, and
        // on a busy machine a one-second idle timeout closed it under a request (one CI rehearsal's
        // remoteConnectionClosed).
        let environment = ["OTPKIT_SERVER_SIGN_UP_LIMIT_PER_IP": "1", "OTPKIT_SERVER_IDLE_TIMEOUT": "5"]
        let file = try Self.configFile(in: first, #""sign-up-limit-per-ip": 2, "idle-timeout": 300"#)
        try await ServerProcess.with(commandLine: ["--config", file], environment: environment, projectID: "demo-otpkit", in: first) { server in
            #expect(try await Self.signUp(server, "one@example.com").status == 200)
            Self.expectSignUpThrottled(try await Self.signUp(server, "two@example.com"))
            #expect(try await Self.accountExists(server, "two@example.com") == false)
            // The environment's idle timeout, not the file's five minutes.
            let connection = try RawConnection(port: server.port)
            try connection.send(
                "POST /identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":\"slow@example.com\"")
            let (_, closed) = try await connection.readUntilClosed(timeout: .seconds(60))
            #expect(closed, "the connection was still open after 60 s")
        }
        // The command line over both: three new accounts.
        let second = try TemporaryDirectory()
        defer { second.remove() }
        let secondFile = try Self.configFile(in: second, #""sign-up-limit-per-ip": 2"#)
        try await ServerProcess.with(
            commandLine: ["--config", secondFile, "--sign-up-limit-per-ip", "3"], environment: environment, projectID: "demo-otpkit", in: second
        ) { server in
            for number in 1...3 { #expect(try await Self.signUp(server, "user\(number)@example.com").status == 200, "sign-up \(number)") }
            Self.expectSignUpThrottled(try await Self.signUp(server, nil))
        }
    }

    /// The default count (100 per window) reaches the routes. The window is a day here: the
    /// bucket refills one account each window divided by 100, and a hundred sign-ups on a loaded
    /// machine have taken more than the 36 seconds of an hour's share, so with the default window
    /// the 101st could have been allowed in its own right.
    @Test func withoutTheEmulatorOneAddressCreatesAHundredAccountsAWindow() async throws {
        try await ServerProcess.with(arguments: ["--api-key", "demo-key", "--limit-window", "86400"]) { server in
            for number in 1...100 {
                let created = try await Self.signUp(server, nil)
                try #require(created.status == 200, "sign-up \(number): \(created.body)")
            }
            Self.expectSignUpThrottled(try await Self.signUp(server, nil))
            Self.expectSignUpThrottled(try await Self.signUp(server, "late@example.com"))
            #expect(try await server.throttled("sign_up", "ip") == 2)
        }
    }

    @Test func aBadLimitFromTheFileOrTheEnvironmentStopsTheStart() async throws {
        let cases: [(settings: String, environment: [String: String], says: String)] = [
            (#""sign-up-limit-per-ip": -1"#, [:], "--sign-up-limit-per-ip must be 0 (no limit) or more"),
            (#""sms-limit-per-account": 0"#, [:], "--sms-limit-per-account must be at least 1"),
            (#""limit-window": 60"#, ["OTPKIT_SERVER_REQUEST_TIMEOUT": "0"], "--request-timeout must be at least 1 second"),
            (#""idle-timeout": 0"#, [:], "--idle-timeout must be at least 1 second"),
        ]
        for (settings, environment, says) in cases {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let run = try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"), ["--config", try Self.configFile(in: directory, settings)],
                environment: ServerProcess.serverEnvironment(environment))
            #expect(run.status == 64, "\(settings) \(environment): \(run)")
            #expect(run.stderr.contains(says), "\(settings) \(environment): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: directory.file("otpkit.sqlite")), "nothing opened")
        }
    }
}
