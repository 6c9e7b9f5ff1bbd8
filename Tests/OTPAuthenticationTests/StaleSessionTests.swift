import OTPAuthentication
import Testing

/// A session older than the recent-login window must not change how the account is signed in to:
/// an outside review took over an account by changing its password from a stale session, whose
/// new session then passed the recent-login check and withdrew the TOTP factor.
@Suite("Stale sessions cannot change credentials")
struct StaleSessionTests {
    static let window: Int64 = 300

    static func fixture(requireRecentLogin: Bool = true) throws -> Fixture {
        try Fixture(
            MultiFactorConfiguration(
                recentLoginWindow: window, credentialChangesRequireRecentLogin: requireRecentLogin,
                passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap)))
    }

    /// An account with a verified address, a password and a TOTP factor, and a session that signed
    /// in with both factors.
    static func protectedAccount(_ fixture: Fixture) async throws -> (user: User, secret: TOTPSecret, factor: MultiFactorInfo) {
        let created = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        _ = try await fixture.service.administration.updateAccount(id: created.uid, isEmailVerified: true)
        let enrolling = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
        let (secret, factor) = try await fixture.enroll(enrolling)
        fixture.nextStep()
        let user = try await signInWithBothFactors(fixture, secret: secret, factor: factor)
        return (user, secret, factor)
    }

    static func signInWithBothFactors(_ fixture: Fixture, secret: TOTPSecret, factor: MultiFactorInfo, password: String = "correct horse")
        async throws -> User
    {
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: password) }
        let resolver = try #require(error?.resolver)
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor.uid, oneTimePassword: try fixture.code(secret))
        return try await resolver.resolveSignIn(with: assertion).user
    }

    @Test("the review's attack: after the window, a password change, an address change, unlinking and deletion are refused and nothing changes")
    func staleSessionIsRefused() async throws {
        let fixture = try Self.fixture()
        let (user, secret, factor) = try await Self.protectedAccount(fixture)
        fixture.clock.advance(by: Self.window + 1)

        #expect(await authErrorCode { _ = try await user.update(password: "attacker's choice") } == .requiresRecentLogin)
        #expect(await authErrorCode { _ = try await user.update(email: "mallory@example.com") } == .requiresRecentLogin)
        #expect(await authErrorCode { _ = try await user.unlink(fromProvider: "password") } == .requiresRecentLogin)
        #expect(await authErrorCode { try await user.delete() } == .requiresRecentLogin)
        #expect(await authErrorCode { try await user.multiFactor.unenroll(with: factor) } == .requiresRecentLogin)
        // The session itself still works for what needs no recent sign-in.
        #expect(try await user.update(displayName: .set("Ada")).sessionID == user.sessionID)

        let account = try #require(try await fixture.service.administration.accountDetails(id: user.uid)?.account)
        #expect(account.email == "ada@example.com" && account.tokensValidAfter == nil)
        fixture.nextStep()
        let again = try await Self.signInWithBothFactors(fixture, secret: secret, factor: factor)
        #expect(again.uid == user.uid && again.multiFactor.enrolledFactors.map(\.uid) == [factor.uid])
    }

    @Test("a session that continues another keeps its sign-in time, so a change cannot make an old sign-in recent")
    func continuedSessionKeepsSignInTime() async throws {
        let fixture = try Self.fixture()
        let (user, _, factor) = try await Self.protectedAccount(fixture)
        let signedInAt = user.authenticatedAt
        #expect(signedInAt == fixture.clock.now())
        fixture.clock.advance(by: Self.window - 10)
        let continued = try await user.update(password: "battery staple")
        #expect(continued.sessionID != user.sessionID && continued.authenticatedAt == signedInAt)
        fixture.clock.advance(by: 11)
        #expect(await authErrorCode { try await continued.multiFactor.unenroll(with: factor) } == .requiresRecentLogin)
        #expect(await authErrorCode { _ = try await continued.update(password: "a third one") } == .requiresRecentLogin)
        // Read back from the store as a server does for each request: the same time.
        let restored = try await fixture.service.user(forSessionID: continued.sessionID, identity: Fixture.identity(user.uid))
        #expect(restored.authenticatedAt == signedInAt)
    }

    @Test("a link keeps the linked session's sign-in time, and linking after the window is refused")
    func linkKeepsSignInTime() async throws {
        let fixture = try Self.fixture()
        let anonymous = try await fixture.service.signInAnonymously()
        fixture.clock.advance(by: 100)
        let linked = try await anonymous.link(with: EmailAuthProvider.credential(withEmail: "bob@example.com", password: "correct horse")).user
        #expect(linked.authenticatedAt == anonymous.authenticatedAt && linked.authenticatedAt == Fixture.start)

        let stale = try await fixture.service.signInAnonymously()
        fixture.clock.advance(by: Self.window + 1)
        let credential = EmailAuthProvider.credential(withEmail: "carol@example.com", password: "correct horse")
        #expect(await authErrorCode { _ = try await stale.link(with: credential) } == .requiresRecentLogin)
        #expect(try await fixture.service.administration.accountDetails(email: "carol@example.com") == nil)
        #expect(await authErrorCode { _ = try await linked.unlink(fromProvider: "password") } == .requiresRecentLogin)
    }

    @Test("a new password or address for an account with second factors needs a session that completed one")
    func credentialChangeNeedsSecondFactor() async throws {
        let fixture = try Self.fixture()
        let created = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        _ = try await fixture.service.administration.updateAccount(id: created.uid, isEmailVerified: true)
        let enrolling = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
        let (secret, factor) = try await fixture.enroll(enrolling)
        // The enrolling session signed in with the password alone.
        #expect(await authErrorCode { _ = try await enrolling.update(password: "battery staple") } == .requiresRecentLogin)
        #expect(await authErrorCode { _ = try await enrolling.update(email: "mallory@example.com") } == .requiresRecentLogin)
        fixture.nextStep()
        let full = try await Self.signInWithBothFactors(fixture, secret: secret, factor: factor)
        let changed = try await full.update(password: "battery staple")
        #expect(changed.secondFactorIdentifier == factor.uid)
        fixture.nextStep()
        #expect(try await Self.signInWithBothFactors(fixture, secret: secret, factor: factor, password: "battery staple").uid == created.uid)
    }

    @Test("a user deletes their own account within the window: every session ends and the address is free")
    func deleteOwnAccount() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "dan@example.com", password: "correct horse")
        let elsewhere = try await fixture.service.signIn(withEmail: "dan@example.com", password: "correct horse")
        try await user.delete()
        #expect(try await fixture.service.administration.accountDetails(id: user.uid) == nil)
        #expect(await authErrorCode { _ = try await elsewhere.multiFactor.session() } == .userTokenExpired)
        #expect(await authErrorCode { try await user.delete() } == .userNotFound)
        _ = try await fixture.service.createUser(withEmail: "dan@example.com", password: "correct horse")
    }

    @Test("with credentialChangesRequireRecentLogin off, a stale session may change the password, as the setting says")
    func settingOff() async throws {
        let fixture = try Self.fixture(requireRecentLogin: false)
        let user = try await fixture.service.createUser(withEmail: "erin@example.com", password: "correct horse")
        fixture.clock.advance(by: Self.window + 1)
        #expect(try await user.update(password: "battery staple").authenticatedAt == user.authenticatedAt)
    }
}
