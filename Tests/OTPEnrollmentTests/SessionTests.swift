import OTPEnrollment
import Testing

@Suite("Sessions")
struct SessionTests {
    @Test("a session is restored by id, with its second factor and the session's own first-factor provider")
    func restore() async throws {
        let fixture = try Fixture()
        let (secret, info) = try await fixture.enroll(try await fixture.signIn())
        fixture.nextStep()
        let result = try await fixture.resolver().resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))

        let restored = try await fixture.service.user(forSessionID: result.user.sessionID, identity: Fixture.identity(provider: .password))
        #expect(restored.secondFactorIdentifier == info.uid)
        #expect(restored.signInSecondFactor == "totp")
        #expect(restored.multiFactor.enrolledFactors == [info])
        _ = try await restored.multiFactor.session()

        // The provider comes from the session: claiming another one cannot unlock enrollment.
        let anonymous = try await fixture.signIn(Fixture.identity("carol", provider: .anonymous))
        let claimed = try await fixture.service.user(forSessionID: anonymous.sessionID, identity: Fixture.identity("carol", provider: .password))
        #expect(claimed.providerID == "anonymous")
        let session = try await claimed.multiFactor.session()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .unsupportedFirstFactor)
    }

    @Test("restoring fails for another user's, a revoked or an unknown session")
    func restoreFailures() async throws {
        let fixture = try Fixture()
        let first = try await fixture.signIn()
        let second = try await fixture.signIn()
        #expect(await authErrorCode { _ = try await fixture.service.user(forSessionID: first.sessionID, identity: Fixture.identity("bob")) } == .invalidUserToken)
        try await fixture.enroll(first)
        #expect(await authErrorCode { _ = try await fixture.service.user(forSessionID: second.sessionID, identity: Fixture.identity()) } == .userTokenExpired)
        #expect(await authErrorCode { _ = try await fixture.service.user(forSessionID: "unknown", identity: Fixture.identity()) } == .userTokenExpired)
    }

    @Test("signing out ends the session")
    func signOut() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        try await user.signOut()
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
        #expect(await authErrorCode { _ = try await fixture.service.user(forSessionID: user.sessionID, identity: Fixture.identity()) } == .userTokenExpired)
    }
}
