import Foundation
import OTPTestUtilities
import Testing

/// The review's takeover against the built executable on its SQLite file, as the reviewer ran it.
/// The session is made stale in the database (Python's own sqlite3 moves its sign-in back past the
/// window) rather than by waiting for the window to pass.
@Suite("Stale sessions against otpkit-server")
struct StaleSessionProcessTests {
    @Test("with a refresh token older than the window: no password change, no withdrawal, and the password alone never signs in")
    func takeoverIsRefused() async throws {
        try await ServerProcess.with { server in
            let (_, enrolling) = try await server.verifiedUser("ada@example.com")
            let (key, enrollmentID, step, _) = try await server.enrollTOTP(enrolling)
            let (pending, _) = try await server.pendingSignIn("ada@example.com")
            let signedIn = try await server.post(
                ServerProcess.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(try TOTPCodes.code(key, step: step + 1))"}}"#
            )
            let refreshToken = try #require(signedIn.json["refreshToken"] as? String, "\(signedIn.body)")
            let signedInAt = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String)).authTime

            let backdate = try await ProcessRunner.run(
                try ExternalTool.debianPython3.path(),
                [
                    "-c",
                    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], timeout=30); c.execute('UPDATE sessions SET authenticated_at = authenticated_at - 301'); c.commit()",
                    server.directory.file("otpkit.sqlite"),
                ])
            try #require(backdate.status == 0, "\(backdate)")

            let refreshed = try await server.post(ServerProcess.tokenPath, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            let stale = try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)")
            #expect(try await server.verifiedClaims(stale).authTime == signedInAt - 301)

            let update = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:update" + ServerProcess.key,
                #"{"idToken":"\#(stale)","password":"attacker's choice","returnSecureToken":true}"#)
            #expect(update.errorMessage?.hasPrefix("CREDENTIAL_TOO_OLD_LOGIN_AGAIN : ") == true, "\(update.body)")
            let withdraw = try await server.post(
                ServerProcess.v2("mfaEnrollment:withdraw"), #"{"idToken":"\#(stale)","mfaEnrollmentId":"\#(enrollmentID)"}"#)
            #expect(withdraw.errorMessage?.hasPrefix("CREDENTIAL_TOO_OLD_LOGIN_AGAIN : ") == true, "\(withdraw.body)")

            // The owner's password still asks for the factor, which is still there.
            let (_, hints) = try await server.pendingSignIn("ada@example.com")
            #expect(hints.map { $0["mfaEnrollmentId"] as? String } == [enrollmentID])
            let attacker = try await server.post(
                ServerProcess.signInPath, #"{"email":"ada@example.com","password":"attacker's choice","returnSecureToken":true}"#)
            #expect(attacker.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(attacker.body)")
        }
    }
}
