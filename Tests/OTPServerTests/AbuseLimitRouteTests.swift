import OTPAuthentication
import OTPServer
import Testing

/// The abuse limits of the routes, in process with the clock moved by the test: second-factor
/// codes and text messages per client address, text messages per account, and the client address
/// a trusted proxy's `X-Forwarded-For` names. (`AbuseLimitTests` holds what needs the executable:
/// its options, its defaults and two servers sharing one database.)
@Suite("Abuse limits through the REST API")
struct AbuseLimitRouteTests {
    typealias Server = ServerProcess

    @Test("wrong codes from one address are throttled, and the throttled request spends neither the pending credential nor the code")
    func wrongCodesFromOneAddress() async throws {
        // The enrollment's code is the first of the four codes the address may check per window.
        try await InProcessServer.with(limits: RequestLimits(window: 30, verificationsPerAddress: 4)) { server in
            let (_, idToken) = try await server.verifiedUser("ida@example.com")
            let enrolled = try await server.enrollTOTP(idToken)
            let pending = try await server.pendingSignIn("ida@example.com").credential
            // The enrollment accepted its step; the next one signs in (within the window).
            let code = try TOTPCodes.code(enrolled.key, step: enrolled.step + 1)
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            func signIn(_ code: String) async throws -> ServerProcess.Answer {
                try await server.post(Server.v2("mfaSignIn:finalize"), AbuseLimitTests.totpSignIn(pending, enrolled.enrollmentID, code))
            }
            for attempt in 1...3 {
                let refused = try await signIn(wrong)
                #expect(refused.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "wrong code \(attempt): \(refused.body)")
            }
            let throttled = try await signIn(code)
            #expect(throttled.status == 400, "\(throttled.body)")
            #expect(throttled.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true, "\(throttled.body)")
            #expect(throttled.errorMessage?.contains("from this address") == true, "\(throttled.body)")
            #expect((throttled.json["error"] as? [String: Any])?["code"] as? Int == 400)
            #expect(throttled.json.keys.contains("idToken") == false)
            #expect(try server.throttled("verification", "ip") == 1)
            #expect(try server.throttled("verification", "account") == 0)
            #expect(try server.verifications("mfa_sign_in", "refused") == 3)
            #expect(try server.verifications("mfa_sign_in", "accepted") == 0)

            // A window later the address may check codes again, and the code it was refused
            // (still within the verification window) signs in with the same pending credential.
            server.clock.advance(by: 30)
            let signedIn = try await signIn(code)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let token = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            #expect(try await server.verifiedClaims(token).firebase.secondFactorIdentifier == enrolled.enrollmentID)
            #expect(try server.verifications("mfa_sign_in", "accepted") == 1)
        }
    }

    @Test("X-Forwarded-For counts only when the peer is a trusted proxy, by its last untrusted entry, IPv6 by its /64")
    func forwardedFor() async throws {
        // Different accounts each time, so that only the address's count can refuse.
        @Sendable func signIn(_ server: InProcessServer, _ forwardedFor: String, _ attempt: Int) async throws -> ServerProcess.Answer {
            try await server.post(
                Server.signInPath, #"{"email":"nobody\#(attempt)@example.com","password":"wrong password"}"#,
                headers: [("X-Forwarded-For", forwardedFor)])
        }
        @Sendable func isThrottled(_ answer: ServerProcess.Answer) -> Bool {
            answer.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : ") == true
        }
        let limits = RequestLimits(signInsPerAddress: 1)
        try await InProcessServer.with(limits: limits, trustedProxies: ["127.0.0.1"]) { server in
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
        // Without trusted proxies, or trusting another proxy than the peer, the header is ignored:
        // both come from the loopback address.
        for trusted: Set<String> in [[], ["192.0.2.80"]] {
            try await InProcessServer.with(limits: limits, trustedProxies: trusted) { server in
                let first = try await signIn(server, "203.0.113.1", 0)
                #expect(!isThrottled(first), "\(first.body)")
                let second = try await signIn(server, "203.0.113.2", 1)
                #expect(isThrottled(second), "\(trusted): \(second.body)")
            }
        }
    }

    @Test("text messages are throttled per address, and nothing is sent for a throttled request")
    func textMessagesPerAddress() async throws {
        try await InProcessServer.with(limits: RequestLimits(codeSendsPerAddress: 2)) { server in
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

            // The list holds the sign-in's code alone (the enrollment's went when it was used).
            let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/verificationCodes")
            let codes = try #require(listed.json["verificationCodes"] as? [[String: Any]], "\(listed.body)")
            #expect(codes.map { $0["sessionInfo"] as? String } == [sessionInfo], "\(listed.body)")
            #expect(try server.throttled("sms", "ip") == 2)
        }
    }

    @Test("text messages are throttled per account; another account from the same address is not held back")
    func textMessagesPerAccount() async throws {
        var configuration = InProcessServer.configuration
        configuration.phone = PhoneSettings(isEnabled: true, messageTemplate: "{code}")
        configuration.phone.sendsPerUser = 2
        try await InProcessServer.with(configuration: configuration) { server in
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

            let (_, otherToken) = try await server.verifiedUser("sid@example.com")
            let other = try await start(otherToken, "+12015550104")
            #expect(other.json["phoneSessionInfo"] is [String: Any], "\(other.body)")
        }
    }
}
