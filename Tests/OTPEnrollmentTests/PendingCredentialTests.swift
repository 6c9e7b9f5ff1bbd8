import OTPCore
import OTPEnrollment
import Testing

/// A sign-in's second step in a later request: the resolver found again from its pending
/// credential, and a TOTP enrollment finalized from its session info alone (what a server's
/// client keeps between requests).
@Suite struct PendingCredentialTests {
    /// An account with a verified address and a TOTP factor, signed in again with its password:
    /// the resolver, the factor and its secret.
    func pendingSignIn(_ fixture: Fixture) async throws -> (MultiFactorResolver, MultiFactorInfo, TOTPSecret) {
        _ = try await fixture.service.createAccount(
            id: "kim", email: "kim@example.com", password: "long enough", displayName: nil, photoURL: nil, isEmailVerified: true,
            isDisabled: false)
        let user = try await fixture.service.signIn(withEmail: "kim@example.com", password: "long enough")
        let session = try await user.multiFactor.session()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        // The server's path: only the session info comes back with the code.
        let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(
            withSessionInfo: secret.sessionInfo, oneTimePassword: try fixture.code(secret))
        try await user.multiFactor.enroll(with: assertion, displayName: "App")
        let info = try #require(user.multiFactor.enrolledFactors.first)
        let error = await #expect(throws: AuthError.self) { try await fixture.service.signIn(withEmail: "kim@example.com", password: "long enough") }
        return (try #require(error?.resolver), info, secret)
    }

    @Test func theResolverIsFoundAgainAndCompletesOnce() async throws {
        let fixture = try Fixture()
        let (first, info, secret) = try await pendingSignIn(fixture)
        #expect(first.uid == "kim")
        let again = try await fixture.service.resolver(forPendingCredential: first.pendingCredential, userID: "kim")
        #expect(again.hints.map(\.uid) == [info.uid])
        fixture.nextStep()
        let result = try await again.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))
        #expect(result.user.signInSecondFactor == "totp")
        #expect(result.user.providerID == "password")
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: first.pendingCredential, userID: "kim") }
                == .invalidMultiFactorSession, "a completed sign-in is no longer pending")
    }

    @Test func unknownForeignAndExpiredCredentialsAreRefused() async throws {
        let fixture = try Fixture()
        let (resolver, _, _) = try await pendingSignIn(fixture)
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: "nosuchcredential", userID: "kim") }
                == .invalidMultiFactorSession)
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: resolver.pendingCredential, userID: "someone") }
                == .invalidMultiFactorSession)
        fixture.clock.advance(by: fixture.service.configuration.pendingSignInLifetime + 1)
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: resolver.pendingCredential, userID: "kim") }
                == .invalidMultiFactorSession)
    }

    @Test func anEnrollmentSessionInfoIsBoundToItsUser() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await alice.multiFactor.session())
        let bob = try await fixture.signIn(Fixture.identity("bob", email: "bob@example.com"))
        let code = try fixture.code(secret)
        #expect(
            await authErrorCode {
                try await bob.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(withSessionInfo: secret.sessionInfo, oneTimePassword: code),
                    displayName: nil)
            } == .invalidVerificationID)
        #expect(
            await authErrorCode {
                try await alice.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(withSessionInfo: "", oneTimePassword: code), displayName: nil)
            } == .missingVerificationID)
        #expect(bob.multiFactor.enrolledFactors.isEmpty && alice.multiFactor.enrolledFactors.isEmpty)
    }
}
