import Foundation
import OTPAuthentication
import OTPTestUtilities
import Testing

/// `--test-phone-number` (Firebase's fictional numbers, `IDENTITY-TOOLKIT.md` A.7): a fixed code,
/// no text message, enrollment and sign-in alike, on a server with no SMS sender at all. A code
/// still works once per verification, and wrong codes still count. The flows run through the
/// routes in process; the option's parsing through the executable.
@Suite struct TestPhoneNumberTests {
    typealias Server = ServerProcess
    static let number = "+15555550100"
    static let code = "123456"

    /// The service with `numbers` as its test numbers and no SMS sender, behind the routes of a
    /// production server (an API key, no emulator); phone factors on only with test numbers, as
    /// `otpkit-server` sets them.
    static func withServer(
        testNumbers numbers: [String: String], _ body: @Sendable (InProcessServer) async throws -> Void
    ) async throws {
        var configuration = InProcessServer.configuration
        configuration.phone = PhoneSettings(isEnabled: !numbers.isEmpty, testPhoneNumbers: numbers)
        try await InProcessServer.with(configuration: configuration, apiKeys: ["demo-key"], body)
    }

    @Test func aTestNumberEnrollsAndSignsInWithoutAnySMSSender() async throws {
        try await Self.withServer(testNumbers: [Self.number: Self.code]) { server in
            try await server.verifiedAccount("tess@example.com")
            let signedIn = try await server.post(
                Server.signInPath, #"{"email":"tess@example.com","password":"long enough","returnSecureToken":true}"#)
            let idToken = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")

            // A real number: no sender, so no code for it.
            let real = try await server.post(
                Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+12015550123"}}"#)
            #expect(real.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : ") == true, "\(real.body)")

            // Wrong codes count: after five the verification ends, and the right code no longer works.
            let exhausted = try await startEnrollment(server, idToken)
            for attemptsLeft in (0..<5).reversed() {
                let wrong = try await finalizeEnrollment(server, idToken, exhausted, code: "000000")
                #expect(
                    wrong.errorMessage?.hasPrefix("INVALID_CODE : ") == true || wrong.errorMessage?.hasPrefix("SESSION_EXPIRED") == true,
                    "\(wrong.body)")
                if attemptsLeft > 0 { #expect(wrong.errorMessage?.contains("(\(attemptsLeft) attempts left)") == true, "\(wrong.body)") }
            }
            let tooLate = try await finalizeEnrollment(server, idToken, exhausted, code: Self.code)
            #expect(tooLate.status == 400, "the fixed code after five wrong ones: \(tooLate.body)")
            #expect(try await server.mfaInfo(idToken) == nil)

            // A new verification: one wrong code counted, then the fixed code enrolls.
            let sessionInfo = try await startEnrollment(server, idToken)
            let wrong = try await finalizeEnrollment(server, idToken, sessionInfo, code: "654321")
            #expect(wrong.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(wrong.body)")
            #expect(wrong.errorMessage?.contains("(4 attempts left)") == true, "\(wrong.body)")
            let enrolled = try await finalizeEnrollment(server, idToken, sessionInfo, code: Self.code)
            #expect(enrolled.status == 200, "\(enrolled.body)")
            let enrolledToken = try #require(enrolled.json["idToken"] as? String)
            let factors = try #require(try await server.mfaInfo(enrolledToken))
            #expect(factors.first?["phoneInfo"] as? String == Self.number)
            let enrollmentID = try #require(factors.first?["mfaEnrollmentId"] as? String)
            // Once per verification.
            let again = try await finalizeEnrollment(server, enrolledToken, sessionInfo, code: Self.code)
            #expect(again.errorMessage?.hasPrefix("INVALID_SESSION_INFO : ") == true, "\(again.body)")

            // Sign-in: the same fixed code completes the second step, once.
            let (pending, hints) = try await server.pendingSignIn("tess@example.com")
            #expect(hints.first?["mfaEnrollmentId"] as? String == enrollmentID)
            let started = try await server.post(
                Server.v2("mfaSignIn:start"), #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","phoneSignInInfo":{}}"#)
            let signInSession = try #require((started.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
            let wrongSignIn = try await finalizeSignIn(server, pending, signInSession, code: "000000")
            #expect(wrongSignIn.errorMessage?.hasPrefix("INVALID_CODE : ") == true, "\(wrongSignIn.body)")
            let completed = try await finalizeSignIn(server, pending, signInSession, code: Self.code)
            #expect(completed.status == 200, "\(completed.body)")
            let claims = try await server.verifiedClaims(try #require(completed.json["idToken"] as? String))
            #expect(claims.firebase.signInSecondFactor == "phone")
            #expect(claims.firebase.secondFactorIdentifier == enrollmentID)
            let (another, _) = try await server.pendingSignIn("tess@example.com")
            let replayed = try await finalizeSignIn(server, another, signInSession, code: Self.code)
            #expect(replayed.errorMessage?.hasPrefix("INVALID_SESSION_INFO : ") == true, "\(replayed.body)")

            // Wrong codes count at sign-in too: after five the fixed code no longer completes it.
            let restarted = try await server.post(
                Server.v2("mfaSignIn:start"), #"{"mfaPendingCredential":"\#(another)","mfaEnrollmentId":"\#(enrollmentID)","phoneSignInInfo":{}}"#)
            let guessed = try #require((restarted.json["phoneResponseInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(restarted.body)")
            for _ in 0..<5 {
                let wrong = try await finalizeSignIn(server, another, guessed, code: "000000")
                #expect(wrong.status == 400, "\(wrong.body)")
                #expect(wrong.json["idToken"] == nil)
            }
            let refused = try await finalizeSignIn(server, another, guessed, code: Self.code)
            #expect(refused.status == 400, "the fixed code after five wrong ones: \(refused.body)")
            #expect(refused.json["idToken"] == nil, "\(refused.body)")
        }
    }

    @Test func withoutTestNumbersOrASenderPhoneFactorsStayOff() async throws {
        try await Self.withServer(testNumbers: [:]) { server in
            try await server.verifiedAccount("ted@example.com")
            let signedIn = try await server.post(Server.signInPath, #"{"email":"ted@example.com","password":"long enough","returnSecureToken":true}"#)
            let idToken = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            let refused = try await server.post(
                Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"\#(Self.number)"}}"#)
            #expect(refused.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : ") == true, "the number is no test number here: \(refused.body)")
        }
    }

    @Test(arguments: [
        ("+15555550100", "--test-phone-number takes"), ("15555550100=123456", "E.164"), ("+15555550100=12345", "six digits"),
        ("+15555550100=abcdef", "six digits"),
    ])
    func malformedValuesExit64NamingTheForm(_ value: String, _ expected: String) async throws {
        let run = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            ["--db", "/nonexistent/x.sqlite", "--project-id", "demo", "--emulator", "--test-phone-number", value],
            environment: ServerProcess.serverEnvironment([:]))
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains(expected), "\(run)")
    }

    private func startEnrollment(_ server: InProcessServer, _ idToken: String) async throws -> String {
        let started = try await server.post(
            Server.v2("mfaEnrollment:start"), #"{"idToken":"\#(idToken)","phoneEnrollmentInfo":{"phoneNumber":"+1 555-555-0100"}}"#)
        return try #require((started.json["phoneSessionInfo"] as? [String: Any])?["sessionInfo"] as? String, "\(started.body)")
    }

    private func finalizeEnrollment(_ server: InProcessServer, _ idToken: String, _ sessionInfo: String, code: String) async throws
        -> ServerProcess.Answer
    {
        try await server.post(
            Server.v2("mfaEnrollment:finalize"),
            #"{"idToken":"\#(idToken)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}}"#)
    }

    private func finalizeSignIn(_ server: InProcessServer, _ pending: String, _ sessionInfo: String, code: String) async throws
        -> ServerProcess.Answer
    {
        try await server.post(
            Server.v2("mfaSignIn:finalize"),
            #"{"mfaPendingCredential":"\#(pending)","phoneVerificationInfo":{"sessionInfo":"\#(sessionInfo)","code":"\#(code)"}}"#)
    }
}
