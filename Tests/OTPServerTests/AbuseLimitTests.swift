import Foundation
import OTPTestUtilities
import Testing

/// The abuse limits of `otpkit-server` where the executable matters: password sign-ins per account
/// across two servers of one SQLite file, the limit options and their defaults (under `--emulator`
/// the limits are off unless given, as Firebase's emulator has none), and values that stop the
/// start. The rules themselves are tested in process (`AbuseLimitRouteTests`).
@Suite struct AbuseLimitTests {
    typealias Server = ServerProcess

    static func totpSignIn(_ pending: String, _ enrollmentID: String, _ code: String) -> String {
        #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(code)"}}"#
    }

    static func createAccount(_ server: ServerProcess, _ email: String) async throws {
        let created = try await server.post(
            "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts",
            #"{"email":"\#(email)","password":"long enough","emailVerified":true}"#, headers: [("Authorization", "Bearer owner")])
        try #require(created.status == 200, "\(created.body)")
    }

    @Test func anAccountsLimitHoldsAcrossTwoServersOfOneDatabase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let arguments = ["--emulator", "--sign-in-limit-per-account", "3"]
        func signIn(_ server: ServerProcess, _ email: String, _ password: String) async throws -> ServerProcess.Answer {
            try await server.post(Server.signInPath, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#)
        }
        try await ServerProcess.with(arguments: arguments, in: directory) { first in
            try await ServerProcess.with(arguments: arguments, in: directory) { second in
                try #require(first.port != second.port)
                try await Self.createAccount(first, "ann@example.com")
                try await Self.createAccount(second, "bob@example.com")
                // Fewer wrong passwords than lock the account in the service (5).
                for (attempt, server) in [first, second, first].enumerated() {
                    let refused = try await signIn(server, "ann@example.com", "wrong password")
                    #expect(refused.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "attempt \(attempt + 1): \(refused.body)")
                }
                for server in [second, first] {
                    let throttled = try await signIn(server, "ann@example.com", "long enough")
                    #expect(throttled.status == 400, "\(throttled.body)")
                    #expect(throttled.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(throttled.body)")
                    #expect(throttled.errorMessage?.contains("for this account") == true, "\(throttled.body)")
                    #expect(throttled.json.keys.contains("idToken") == false)
                    #expect(try await server.throttled("sign_in", "account") == 1)
                }
                // Per account, not per address: another account signs in from the same address.
                let other = try await signIn(second, "bob@example.com", "long enough")
                #expect(other.status == 200, "\(other.body)")
                #expect(other.json["idToken"] is String)
            }
        }
    }

    /// The options reach the routes (`AbuseLimitRouteTests` holds the rules themselves).
    @Test func theLimitOptionsReachTheRoutes() async throws {
        let arguments = ["--emulator", "--sign-in-limit-per-ip", "1", "--trust-forwarded-for", "127.0.0.1", "--verification-limit-per-ip", "1"]
        try await ServerProcess.with(arguments: arguments) { server in
            // The trusted proxy's entries are the addresses counted: a second address may sign
            // in, the first may not again.
            for (attempt, (forwardedFor, throttled)) in [("203.0.113.1", false), ("203.0.113.2", false), ("203.0.113.1", true)].enumerated() {
                let answer = try await server.post(
                    Server.signInPath, #"{"email":"nobody\#(attempt)@example.com","password":"wrong password"}"#,
                    headers: [("X-Forwarded-For", forwardedFor)])
                let prefix = throttled ? "TOO_MANY_ATTEMPTS_TRY_LATER : " : "INVALID_LOGIN_CREDENTIALS : "
                #expect(answer.errorMessage?.hasPrefix(prefix) == true, "X-Forwarded-For: \(forwardedFor): \(answer.body)")
            }
            // One code per address: a wrong one, then no other.
            let (_, idToken) = try await server.verifiedUser("ida@example.com")
            let info = try await server.startTOTPEnrollment(idToken)
            let sessionInfo = try #require(info["sessionInfo"] as? String)
            let code = try TOTPCodes.code(try #require(info["sharedSecretKey"] as? String), step: server.currentStep)
            func finalize(_ code: String) -> String {
                #"{"idToken":"\#(idToken)","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(code)"}}"#
            }
            let wrong = try await server.post(Server.v2("mfaEnrollment:finalize"), finalize(String(format: "%06d", (Int(code)! + 1) % 1_000_000)))
            #expect(wrong.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(wrong.body)")
            let throttled = try await server.post(Server.v2("mfaEnrollment:finalize"), finalize(code))
            #expect(throttled.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(throttled.body)")
            #expect(try await server.throttled("verification", "ip") == 1)
            #expect(try await server.throttled("sign_in", "ip") == 1)
        }
        try await ServerProcess.expectRefusedAtStart([
            (["--trust-forwarded-for", "yes"], "--trust-forwarded-for \"yes\" is not an IP address"),
            (["--trust-forwarded-for", "127.0.0.1", "--trust-forwarded-for", "10.0.0.0/8"], "\"10.0.0.0/8\" is not an IP address"),
        ])
    }

    @Test func theDefaultsHoldWithoutTheEmulatorAndNotUnderIt() async throws {
        // 20 sign-ins to one account per hour by default, successful ones too; the emulator has
        // no limit.
        for (arguments, limited) in [(["--api-key", "demo-key"], true), (["--emulator"], false)] {
            try await ServerProcess.with(arguments: arguments) { server in
                let created = try await server.post(ClientEndpointTests.signUp, #"{"email":"dee@example.com","password":"long enough"}"#)
                try #require(created.status == 200, "\(created.body)")
                for attempt in 1...20 {
                    let signedIn = try await server.post(Server.signInPath, #"{"email":"dee@example.com","password":"long enough"}"#)
                    try #require(signedIn.status == 200, "\(arguments) sign-in \(attempt): \(signedIn.body)")
                }
                let last = try await server.post(Server.signInPath, #"{"email":"dee@example.com","password":"long enough"}"#)
                #expect(
                    (last.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true) == limited, "\(arguments) sign-in 21: \(last.body)")
                #expect((last.status == 200) == !limited, "\(arguments): \(last.body)")
            }
        }
    }

    @Test func limitsOutOfRangeStopTheServerAtStart() async throws {
        try await ServerProcess.expectRefusedAtStart([
            (["--sign-in-limit-per-ip=-1"], "--sign-in-limit-per-ip must be 0 (no limit) or more"),
            (["--verification-limit-per-account=-5"], "--verification-limit-per-account must be 0 (no limit) or more"),
            (["--sms-limit-per-account", "0"], "--sms-limit-per-account must be at least 1"),
            (["--limit-window", "0"], "--limit-window must be at least 1 second"),
            (["--idle-timeout", "0"], "--idle-timeout must be at least 1 second"),
            (["--request-timeout", "0"], "--request-timeout must be at least 1 second"),
            (["--sms-limit-per-ip", "many"], "--sms-limit-per-ip"),
        ])
    }
}
