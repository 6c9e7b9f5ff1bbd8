import Foundation
import OTPTestUtilities
import Testing

/// The abuse limits of `otpkit-server` through the built executable: second-factor codes per
/// client address, password sign-ins per account across two servers of one SQLite file, and text
/// messages per address and per account. Each is given on the command line: under `--emulator`
/// the limits are off unless given, as Firebase's emulator has none.
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

    @Test func wrongCodesFromOneAddressAreThrottledAndTheRightCodeThenChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var pending = ""
        var enrollmentID = ""
        var code = ""
        // The enrollment's code is the first of the four codes the address may have checked.
        try await ServerProcess.with(arguments: ["--emulator", "--verification-limit-per-ip", "4"], in: directory) { server in
            let (_, idToken) = try await server.verifiedUser("ida@example.com")
            let enrolled = try await server.enrollTOTP(idToken)
            enrollmentID = enrolled.enrollmentID
            pending = try await server.pendingSignIn("ida@example.com").credential
            // The enrollment accepted its step; the next one signs in (within the window).
            code = try TOTPCodes.code(enrolled.key, step: enrolled.step + 1)
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            for attempt in 1...3 {
                let refused = try await server.post(Server.v2("mfaSignIn:finalize"), Self.totpSignIn(pending, enrollmentID, wrong))
                #expect(refused.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "wrong code \(attempt): \(refused.body)")
            }
            let throttled = try await server.post(Server.v2("mfaSignIn:finalize"), Self.totpSignIn(pending, enrollmentID, code))
            #expect(throttled.status == 400, "\(throttled.body)")
            #expect(throttled.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(throttled.body)")
            #expect(throttled.errorMessage?.contains("from this address") == true, "\(throttled.body)")
            #expect((throttled.json["error"] as? [String: Any])?["code"] as? Int == 400)
            #expect(throttled.json.keys.contains("idToken") == false)
            #expect(try await server.throttled("verification", "ip") == 1)
            #expect(try await server.throttled("verification", "account") == 0)
            #expect(try await server.verifications("mfa_sign_in", "refused") == 3)
            #expect(try await server.verifications("mfa_sign_in", "accepted") == 0)
        }
        // A server without the limit on the same database: the throttled request spent neither
        // the pending credential nor the code.
        try await ServerProcess.with(in: directory) { server in
            let signedIn = try await server.post(Server.v2("mfaSignIn:finalize"), Self.totpSignIn(pending, enrollmentID, code))
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let idToken = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            #expect(try await server.verifiedClaims(idToken).firebase.secondFactorIdentifier == enrollmentID)
        }
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

    @Test func forwardedForCountsOnlyWhenTrustedByItsLastEntryAndIPv6ByItsPrefix() async throws {
        // Different addresses each time, so that only the address's count can refuse.
        func signIn(_ server: ServerProcess, _ forwardedFor: String, _ attempt: Int) async throws -> ServerProcess.Answer {
            try await server.post(
                Server.signInPath, #"{"email":"nobody\#(attempt)@example.com","password":"wrong password"}"#,
                headers: [("X-Forwarded-For", forwardedFor)])
        }
        func isThrottled(_ answer: ServerProcess.Answer) -> Bool {
            answer.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true
        }
        try await ServerProcess.with(arguments: ["--emulator", "--sign-in-limit-per-ip", "1", "--trust-forwarded-for", "127.0.0.1"]) { server in
            // (X-Forwarded-For, throttled): each address may sign in once; the entries before the
            // last are the client's own writing and count for nothing, and a trusted proxy's own
            // entry is passed over.
            let cases: [(String, Bool)] = [
                ("198.51.100.99, 127.0.0.1", false),
                ("198.51.100.99", true),
                ("198.51.100.7, 203.0.113.1", false),
                ("203.0.113.1", true),
                ("203.0.113.1, 203.0.113.2", false),
                ("2001:db8:1:2::1", false),
                ("2001:db8:1:2:ffff:ffff:ffff:ffff", true),
                ("2001:db8:1:3::1", false),
                ("192.0.2.5", false),
                ("::ffff:192.0.2.5", true),
            ]
            for (attempt, (forwardedFor, throttled)) in cases.enumerated() {
                let answer = try await signIn(server, forwardedFor, attempt)
                #expect(isThrottled(answer) == throttled, "X-Forwarded-For: \(forwardedFor): \(answer.body)")
                if !throttled { #expect(answer.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "\(answer.body)") }
            }
        }
        try await ServerProcess.expectRefusedAtStart([
            (["--trust-forwarded-for", "yes"], "--trust-forwarded-for \"yes\" is not an IP address"),
            (["--trust-forwarded-for", "127.0.0.1", "--trust-forwarded-for", "10.0.0.0/8"], "\"10.0.0.0/8\" is not an IP address"),
        ])
        // Without --trust-forwarded-for, or trusting another proxy than the peer, the header is
        // ignored: both come from the loopback address.
        for arguments in [[], ["--trust-forwarded-for", "192.0.2.80"]] {
            try await ServerProcess.with(arguments: ["--emulator", "--sign-in-limit-per-ip", "1"] + arguments) { server in
                let first = try await signIn(server, "203.0.113.1", 0)
                #expect(!isThrottled(first), "\(first.body)")
                let second = try await signIn(server, "203.0.113.2", 1)
                #expect(isThrottled(second), "\(arguments): \(second.body)")
            }
        }
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

    @Test func textMessagesAreThrottledPerAddress() async throws {
        try await ServerProcess.with(arguments: ["--emulator", "--sms-limit-per-ip", "2"]) { server in
            let (_, idToken) = try await server.verifiedUser("sam@example.com")
            let enrolledToken = try await server.enrollPhone(idToken, number: "+12015550123")
            let (pending, hints) = try await server.pendingSignIn("sam@example.com")
            let phoneID = try #require(hints.first?["mfaEnrollmentId"] as? String)
            let start = #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(phoneID)","phoneSignInInfo":{}}"#
            let started = try await server.post(Server.v2("mfaSignIn:start"), start)
            let sessionInfo = try #require((started.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")

            let again = try await server.post(Server.v2("mfaSignIn:start"), start)
            #expect(again.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(again.body)")
            #expect(again.errorMessage?.contains("text messages from this address") == true, "\(again.body)")
            let enrollment = try await server.post(
                Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(enrolledToken)","phoneEnrollmentInfo":{"phoneNumber":"+12015550124"}}"#)
            #expect(enrollment.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(enrollment.body)")

            // Nothing was sent for the throttled requests: the list holds the sign-in's code alone
            // (the enrollment's went when it was used).
            let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/verificationCodes")
            let codes = try #require(listed.json["verificationCodes"] as? [[String: Any]], "\(listed.body)")
            #expect(codes.map { $0["sessionInfo"] as? String } == [sessionInfo], "\(listed.body)")
            #expect(try await server.throttled("sms", "ip") == 2)
        }
    }

    @Test func textMessagesAreThrottledPerAccount() async throws {
        try await ServerProcess.with(arguments: ["--emulator", "--sms-limit-per-account", "2"]) { server in
            func start(_ idToken: String, _ number: String) async throws -> ServerProcess.Answer {
                try await server.post(
                    Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"\#(number)"}}"#)
            }
            let (_, idToken) = try await server.verifiedUser("sue@example.com")
            // Other numbers each time, so that only the account's count is reached.
            for number in ["+12015550101", "+12015550102"] {
                let started = try await start(idToken, number)
                #expect(started.json["phoneSessionInfo"] is [String: Any], "\(started.body)")
            }
            let refused = try await start(idToken, "+12015550103")
            #expect(refused.status == 400, "\(refused.body)")
            #expect(refused.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(refused.body)")

            // Another user from the same address is not held back.
            let (_, otherToken) = try await server.verifiedUser("sid@example.com")
            let other = try await start(otherToken, "+12015550104")
            #expect(other.json["phoneSessionInfo"] is [String: Any], "\(other.body)")
        }
    }
}
