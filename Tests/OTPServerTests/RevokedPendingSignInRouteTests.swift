import Testing

/// A pending credential is as good as a token for the minutes it lives: a revocation after the
/// first factor passed must end it too. A disabled account's tokens answer nothing of it.
@Suite("Revoked and disabled accounts through the REST API")
struct RevokedPendingSignInRouteTests {
    @Test("after the administrator revokes the user's tokens, the pending credential no longer completes with a right code")
    func revokedCredentialIsRefused() async throws {
        try await InProcessServer.with { server in
            let (uid, token) = try await server.verifiedUser("kim@example.com")
            let (key, enrollmentID, _, _) = try await server.enrollTOTP(token)
            server.nextStep()
            let first = try await server.post(
                ServerProcess.signInPath, #"{"email":"kim@example.com","password":"long enough","returnSecureToken":true}"#)
            let pending = try #require(first.json["mfaPendingCredential"] as? String, "\(first.body)")
            server.clock.advance(by: 1)
            let revoked = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(InProcessServer.projectID)/accounts:update",
                #"{"localId":"\#(uid)","validSince":"\#(server.clock.now())"}"#, headers: [("Authorization", "Bearer owner")])
            #expect(revoked.status == 200, "\(revoked.body)")
            let finalized = try await server.post(
                ServerProcess.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(try server.code(key))"}}"#
            )
            #expect(finalized.status == 400, "\(finalized.body)")
            #expect(finalized.errorMessage?.hasPrefix("INVALID_MFA_PENDING_CREDENTIAL") == true, "\(finalized.body)")
            // A sign-in that starts after the revocation completes.
            _ = try await server.signInWithTOTP("kim@example.com", key: key, enrollmentID: enrollmentID)
        }
    }

    @Test("accounts:lookup with the token of an account disabled since answers USER_DISABLED, not the account")
    func disabledAccountLookup() async throws {
        try await InProcessServer.with { server in
            let (uid, token) = try await server.verifiedUser("lee@example.com")
            let disabled = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(InProcessServer.projectID)/accounts:update",
                #"{"localId":"\#(uid)","disableUser":true}"#, headers: [("Authorization", "Bearer owner")])
            #expect(disabled.status == 200, "\(disabled.body)")
            let lookup = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(token)"}"#)
            #expect(lookup.errorMessage?.hasPrefix("USER_DISABLED") == true, "\(lookup.body)")
            #expect(!lookup.body.contains("lee@example.com"))
        }
    }
}
