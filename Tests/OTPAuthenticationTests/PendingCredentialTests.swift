import OTPCore
import OTPAuthentication
import Testing

/// A sign-in's second step in a later request: the resolver found again from its pending
/// credential, and a TOTP enrollment finalized from its session info alone (what a server's
/// client keeps between requests).
@Suite struct PendingCredentialTests {
    /// An account with a verified address and a TOTP factor, signed in again with its password:
    /// the resolver, the factor and its secret.
    func pendingSignIn(_ fixture: Fixture) async throws -> (MultiFactorResolver, MultiFactorInfo, TOTPSecret) {
        _ = try await fixture.service.administration.createAccount(
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
        #expect(fixture.service.authenticate(pendingCredential: first.pendingCredential)?.userID == "kim")
        // Another service of the same store takes the sign-in up: nothing of it was stored.
        let other = try MultiFactorService(store: fixture.store, clock: fixture.clock, opener: fixture.opener)
        let again = try await other.resolver(forPendingCredential: first.pendingCredential)
        #expect(again.hints.map(\.uid) == [info.uid])
        fixture.nextStep()
        let result = try await again.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))
        #expect(result.user.signInSecondFactor == "totp")
        #expect(result.user.providerID == "password")
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: first.pendingCredential) }
                == .invalidMultiFactorSession, "a completed sign-in is no longer pending")
    }

    @Test("a pending sign-in ends when the account's tokens are revoked, its password changed or it is disabled after it began")
    func revocationEndsPendingSignIns() async throws {
        let fixture = try Fixture()
        let (revoked, _, _) = try await pendingSignIn(fixture)
        fixture.clock.advance(by: 1)
        _ = try await fixture.service.administration.updateAccount(id: "kim", tokensValidAfter: fixture.clock.now())
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: revoked.pendingCredential) }
                == .invalidMultiFactorSession)

        let error = await #expect(throws: AuthError.self) { try await fixture.service.signIn(withEmail: "kim@example.com", password: "long enough") }
        let reset = try #require(error?.resolver)
        fixture.clock.advance(by: 1)
        _ = try await fixture.service.administration.updateAccount(id: "kim", password: "another password")
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: reset.pendingCredential) }
                == .invalidMultiFactorSession)

        let again = await #expect(throws: AuthError.self) {
            try await fixture.service.signIn(withEmail: "kim@example.com", password: "another password")
        }
        let disabled = try #require(again?.resolver)
        #expect(try await fixture.service.resolver(forPendingCredential: disabled.pendingCredential).uid == "kim")
        _ = try await fixture.service.administration.updateAccount(id: "kim", isDisabled: true)
        #expect(await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: disabled.pendingCredential) } == .userDisabled)
    }

    @Test func unknownForgedForeignAndExpiredCredentialsAreRefused() async throws {
        let fixture = try Fixture()
        let (resolver, _, _) = try await pendingSignIn(fixture)
        let credential = resolver.pendingCredential
        // otpkp2.<id>.<uid>.<first factor>.<created>.<expires>.<MAC>, every part after the id base64url.
        var parts = credential.split(separator: ".").map(String.init)
        #expect(parts.count == 7 && parts[0] == "otpkp2")
        func refused(_ candidate: String, _ what: Comment) async {
            #expect(fixture.service.authenticate(pendingCredential: candidate) == nil, what)
            #expect(
                await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: candidate) } == .invalidMultiFactorSession,
                what)
        }
        await refused("nosuchcredential", "a string that is no credential")
        let genuineUser = parts[2]
        parts[2] = "c29tZW9uZQ"  // "someone"
        await refused(parts.joined(separator: "."), "a credential whose user was changed")
        parts[2] = genuineUser
        let genuineExpiry = parts[5]
        parts[5] = "OTk5OTk5OTk5OQ"  // "9999999999"
        await refused(parts.joined(separator: "."), "a credential whose expiry was moved")
        parts[5] = genuineExpiry
        #expect(parts.joined(separator: ".") == credential)
        let (foreign, _, _) = try await pendingSignIn(try Fixture())
        await refused(foreign.pendingCredential, "a credential of another store's service, whose key differs")
        fixture.clock.advance(by: fixture.service.configuration.pendingSignInLifetime + 1)
        #expect(fixture.service.authenticate(pendingCredential: credential)?.userID == "kim", "an expired credential is still genuine")
        #expect(
            await authErrorCode { _ = try await fixture.service.resolver(forPendingCredential: credential) } == .invalidMultiFactorSession,
            "an expired credential")
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
