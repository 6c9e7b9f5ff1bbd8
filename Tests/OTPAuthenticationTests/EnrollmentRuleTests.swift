import OTPCore
import OTPAuthentication
import Testing

@Suite("Enrollment rules")
struct EnrollmentRuleTests {
    @Test("the email must be verified before enrolling")
    func emailMustBeVerified() async throws {
        let fixture = try Fixture()
        for identity in [Fixture.identity(verified: false), Fixture.identity("bob", email: nil, verified: true)] {
            let user = try await fixture.signIn(identity)
            let session = try await user.multiFactor.session()
            #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .unverifiedEmail)
        }
    }

    @Test(
        "anonymous, phone, custom-token and Game Center first factors cannot enroll",
        arguments: [FirstFactorProvider.anonymous, .phone, .customToken, .gameCenter])
    func unsupportedFirstFactor(_ provider: FirstFactorProvider) async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn(Fixture.identity(provider: provider))
        let session = try await user.multiFactor.session()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .unsupportedFirstFactor)
        #expect(!provider.supportsMultiFactor)
    }

    @Test(
        "password, email link and OAuth first factors can enroll",
        arguments: [FirstFactorProvider.password, .emailLink, .google, .apple, .github, FirstFactorProvider(rawValue: "oidc.example")])
    func supportedFirstFactor(_ provider: FirstFactorProvider) async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn(Fixture.identity(provider: provider))
        try await fixture.enroll(user)
        #expect(user.multiFactor.enrolledFactors.count == 1)
    }

    @Test("at most 5 factors per user, also when enrollments were started in parallel")
    func atMostFiveFactors() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        for _ in 0..<4 { try await fixture.enroll(user) }
        // Two enrollments started while the user had 4 factors: only one can finish.
        let first = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let second = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: first, oneTimePassword: try fixture.code(first)), displayName: "5th")
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: second, oneTimePassword: try fixture.code(second)), displayName: "6th"
                )
            } == .maximumSecondFactorCountExceeded)
        #expect(user.multiFactor.enrolledFactors.count == 5)
        let session = try await user.multiFactor.session()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .maximumSecondFactorCountExceeded)
        #expect(fixture.store.factors(userID: "alice").count == 5)
    }

    @Test("enrolling needs a recent sign-in, at start and at finalization")
    func enrollNeedsRecentLogin() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(enrollmentDeadline: 3_600, recentLoginWindow: 300))
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        fixture.clock.advance(by: 301)
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
            } == .requiresRecentLogin)
        let session = try await user.multiFactor.session()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .requiresRecentLogin)

        let fresh = try await fixture.signIn()
        try await fixture.enroll(fresh)
        #expect(fresh.multiFactor.enrolledFactors.count == 1)
    }

    @Test("unenrolling needs a recent sign-in")
    func unenrollNeedsRecentLogin() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let (_, info) = try await fixture.enroll(user)
        fixture.clock.advance(by: 301)
        #expect(await authErrorCode { try await user.multiFactor.unenroll(with: info) } == .requiresRecentLogin)
        #expect(fixture.store.factor(id: info.uid) != nil, "a refused unenrollment changes nothing")
    }

    @Test("a code outside the adjacent intervals is refused with invalidVerificationCode; at the edge it is accepted")
    func codeOutsideWindow() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let now = fixture.clock.now()
        for offset in [-6, 6] {
            let code = try fixture.code(secret, at: now + Int64(offset) * 30)
            #expect(
                await authErrorCode {
                    try await user.multiFactor.enroll(
                        with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
                } == .invalidVerificationCode, "a code \(offset) steps away")
        }
        let edge = try fixture.code(secret, at: now - 5 * 30)
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: edge), displayName: nil)
    }

    @Test("with adjacentIntervals 0, only the current step's code is accepted")
    func exactWindow() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(adjacentIntervals: 0))
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let previous = try fixture.code(secret, at: fixture.clock.now() - 30)
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: previous), displayName: nil)
            } == .invalidVerificationCode)
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
    }

    @Test("finalizing after the deadline is refused with sessionExpired and the pending secret is gone")
    func deadline() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(enrollmentDeadline: 600, recentLoginWindow: 3_600))
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        fixture.clock.advance(by: 600)
        let atDeadline = fixture.clock.now()
        fixture.clock.advance(by: 1)
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
            } == .sessionExpired)
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
            } == .sessionExpired)
        // Back before the deadline, the secret still cannot enroll: it was discarded.
        fixture.clock.set(atDeadline)
        #expect(
            await authErrorCode {
                try await user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
            } == .invalidVerificationID)
        #expect(user.multiFactor.enrolledFactors.isEmpty)
    }

    @Test("finalizing exactly at the deadline still works")
    func atDeadline() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(enrollmentDeadline: 600, recentLoginWindow: 3_600))
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        fixture.clock.advance(by: 600)
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: "Phone")
        let enrolled = try #require(user.multiFactor.enrolledFactors.first)
        #expect(user.multiFactor.enrolledFactors.count == 1)
        #expect(enrolled.displayName == "Phone")
        #expect(enrolled.enrollmentTime == Fixture.start + 600)
        #expect(fixture.store.factors(userID: "alice").map(\.id) == [enrolled.uid])
    }

    @Test("the enrollment code cannot sign in, nor can any earlier step's code")
    func enrollmentCodeNotReusable() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let (secret, info) = try await fixture.enroll(user)
        let resolver = try await fixture.resolver()
        for time in [fixture.clock.now(), fixture.clock.now() - 30, fixture.clock.now() - 120] {
            let assertion = TOTPMultiFactorGenerator.assertionForSignIn(
                withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret, at: time))
            #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: assertion) } == .invalidVerificationCode)
        }
        // A code from a step after the enrollment's is fine (within the window, ahead).
        let later = TOTPMultiFactorGenerator.assertionForSignIn(
            withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret, at: fixture.clock.now() + 30))
        _ = try await resolver.resolveSignIn(with: later)
    }

    @Test("after K wrong codes the pending enrollment is locked for the lockout, even for the right code")
    func enrollmentThrottled() async throws {
        let fixture = try Fixture(
            MultiFactorConfiguration(enrollmentDeadline: 3_600, recentLoginWindow: 3_600, maximumConsecutiveFailures: 3, lockoutDuration: 120))
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let wrong = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.wrongCode(secret))
        #expect(await authErrorCode { try await user.multiFactor.enroll(with: wrong, displayName: nil) } == .invalidVerificationCode)
        #expect(await authErrorCode { try await user.multiFactor.enroll(with: wrong, displayName: nil) } == .invalidVerificationCode)
        #expect(await authErrorCode { try await user.multiFactor.enroll(with: wrong, displayName: nil) } == .tooManyRequests)
        let right = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret))
        let error = await #expect(throws: AuthError.self) { try await user.multiFactor.enroll(with: right, displayName: nil) }
        #expect(error?.code == .tooManyRequests)
        #expect(error?.message == "too many wrong codes in a row: try again in 120 seconds")
        fixture.clock.advance(by: 120)
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
    }

    @Test("enrolling revokes the user's other sessions, not this one nor other users'")
    func enrollRevokesOtherSessions() async throws {
        let fixture = try Fixture()
        let laptop = try await fixture.signIn()
        let phone = try await fixture.signIn()
        let bob = try await fixture.signIn(Fixture.identity("bob", email: "bob@example.com"))
        try await fixture.enroll(laptop)

        #expect(await authErrorCode { _ = try await phone.multiFactor.session() } == .userTokenExpired)
        #expect(await authErrorCode { try await phone.multiFactor.unenroll(with: laptop.multiFactor.enrolledFactors[0]) } == .userTokenExpired)
        #expect(fixture.store.session(id: phone.sessionID) == nil)
        _ = try await laptop.multiFactor.session()
        _ = try await bob.multiFactor.session()
    }

    @Test("unenrolling the factor this session signed in with ends the session (invalidUserToken)")
    func unenrollOwnSecondFactorEndsSession() async throws {
        let fixture = try Fixture()
        let first = try await fixture.signIn()
        let (secretA, factorA) = try await fixture.enroll(first, displayName: "A")
        let (secretB, factorB) = try await fixture.enroll(first, displayName: "B")

        fixture.nextStep()
        let viaA = try await fixture.resolver().resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factorA.uid, oneTimePassword: try fixture.code(secretA)))
        let viaB = try await fixture.resolver().resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factorB.uid, oneTimePassword: try fixture.code(secretB)))

        // Removing B from A's session ends B's session and keeps A's.
        try await viaA.user.multiFactor.unenroll(with: factorB)
        #expect(await authErrorCode { _ = try await viaB.user.multiFactor.session() } == .userTokenExpired)
        _ = try await viaA.user.multiFactor.session()

        // Removing A from A's own session: the factor goes, and so does the session.
        #expect(await authErrorCode { try await viaA.user.multiFactor.unenroll(with: factorA) } == .invalidUserToken)
        #expect(fixture.store.factor(id: factorA.uid) == nil)
        #expect(fixture.store.session(id: viaA.user.sessionID) == nil)
        #expect(await authErrorCode { _ = try await viaA.user.multiFactor.session() } == .invalidUserToken)
        // The session that signed in before any second factor existed is still valid.
        _ = try await first.multiFactor.session()
    }

    @Test("a sign-in assertion cannot enroll, a resolver's session cannot start an enrollment")
    func signInAssertionCannotEnroll() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        let (secret, info) = try await fixture.enroll(user)
        let signInAssertion = TOTPMultiFactorGenerator.assertionForSignIn(
            withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret, at: fixture.clock.now() + 30))
        #expect(await authErrorCode { try await user.multiFactor.enroll(with: signInAssertion, displayName: nil) } == .missingVerificationID)
        let resolver = try await fixture.resolver()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: resolver.session) } == .invalidMultiFactorSession)
        #expect(user.multiFactor.enrolledFactors.count == 1)
    }

    @Test("TOTP disabled: no new enrollment, but enrolled users still need their second factor")
    func totpDisabled() async throws {
        let store = InMemoryAuthStore()
        let clock = ManualAuthClock(Fixture.start)
        let enabled = try MultiFactorService(store: store, clock: clock)
        let user = try await enabled.signIn(Fixture.identity())
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let code = try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey())).code(at: clock.now())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)

        let disabled = try MultiFactorService(configuration: MultiFactorConfiguration(isTOTPEnabled: false), store: store, clock: clock)
        let error = await #expect(throws: AuthError.self) { _ = try await disabled.signIn(Fixture.identity()) }
        #expect(error?.code == .secondFactorRequired)
        let other = try await disabled.signIn(Fixture.identity("bob"))
        let session = try await other.multiFactor.session()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .operationNotAllowed)
    }

    @Test("missing, malformed and foreign inputs get their own errors")
    func inputErrors() async throws {
        let fixture = try Fixture()
        let alice = try await fixture.signIn()
        let bob = try await fixture.signIn(Fixture.identity("bob", email: "bob@example.com"))
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await alice.multiFactor.session())
        for (code, expected) in [
            ("", AuthErrorCode.missingVerificationCode), ("12a456", .invalidVerificationCode), ("12345", .invalidVerificationCode),
            ("1234567", .invalidVerificationCode), ("１２３４５６", .invalidVerificationCode),
        ] {
            #expect(
                await authErrorCode {
                    try await alice.multiFactor.enroll(
                        with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
                } == expected, "code \"\(code)\"")
        }
        #expect(
            await authErrorCode {
                try await bob.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)), displayName: nil)
            } == .invalidVerificationID, "another user's secret")
        #expect(await authErrorCode { try await alice.multiFactor.unenroll(withFactorUID: "no-such-factor") } == .multiFactorInfoNotFound)
    }
}
