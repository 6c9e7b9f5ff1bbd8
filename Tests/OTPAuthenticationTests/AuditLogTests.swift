import OTPAuthentication
import Testing

/// The security events the service records, through its own API as an application calls it: each
/// change once, with who did it and from where, and nothing secret.
@Suite("Audit log")
struct AuditLogTests {
    static let password = "correct horse battery"

    static func fixture(_ auditLog: AuditSettings = AuditSettings()) throws -> Fixture {
        try Fixture(
            MultiFactorConfiguration(passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap), auditLog: auditLog))
    }

    /// The user's events, oldest first.
    static func events(_ fixture: Fixture, of userID: String) async throws -> [AuditEvent] {
        try await fixture.service.administration.auditEvents(AuditQuery(userID: userID, limit: AuditQuery.maximumLimit)).reversed()
    }

    static let browser = AuditContext(clientAddress: "198.51.100.4", userAgent: "Mozilla/5.0 (X11; Linux x86_64)")

    @Test("a user's whole story: sign-up, a wrong password, TOTP, a wrong code, sign-ins, recovery codes, a new password, sign-out")
    func userStory() async throws {
        let fixture = try Self.fixture()
        let service = fixture.service
        let (user, secret, codes, typedWrongCode) = try await AuditContext.with(Self.browser) {
            let created = try await service.createUser(withEmail: "ada@example.com", password: Self.password)
            await #expect(throws: AuthError.self) { _ = try await service.signIn(withEmail: "ada@example.com", password: "not the password") }
            // A verified address, which enrolling needs: no security event.
            _ = try await service.administration.updateAccount(id: created.uid, isEmailVerified: true)
            let user = try await service.signIn(withEmail: "ada@example.com", password: Self.password)
            let (secret, _) = try await fixture.enroll(user)
            let codes = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await user.multiFactor.session())
            try await user.signOut()

            let identity = Fixture.identity(user.uid, email: "ada@example.com")
            fixture.nextStep()
            let wrong = try fixture.wrongCode(secret)
            let resolver = try await fixture.resolver(identity)
            let hint = try #require(resolver.hints.first)
            await #expect(throws: AuthError.self) {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: wrong))
            }
            let signedIn = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: try fixture.code(secret)))
            _ = try await signedIn.user.update(password: "a new correct horse")
            let again = try await fixture.resolver(identity)
            _ = try await again.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[0]))
            return (user, secret, codes, wrong)
        }

        let events = try await Self.events(fixture, of: user.uid)
        #expect(
            events.map(\.kind) == [
                .accountCreated, .signedIn, .signInFailed, .signedIn, .factorEnrolled, .recoveryCodesGenerated, .signedOut, .signInFailed,
                .signedIn, .passwordChanged, .sessionsRevoked, .recoveryCodeUsed,
            ])
        for event in events {
            #expect(event.clientAddress == "198.51.100.4", "\(event.kind)")
            #expect(event.userAgent == "Mozilla/5.0 (X11; Linux x86_64)", "\(event.kind)")
            #expect(event.time == Fixture.start || event.time == fixture.clock.now(), "\(event.kind) at the service's time")
        }
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.sequence < $1.sequence })
        #expect(events[2].reason == "wrong password" && events[2].actor == .anonymous && events[2].provider == "password")
        #expect(events[7].reason == "wrong code" && events[7].actor == .user(user.uid))
        let factorID = try #require(events[4].factorID)
        #expect(events[4].factorKind == .totp)
        #expect(events[8].factorKind == .totp && events[8].factorID == factorID)
        #expect(events[11].factorKind == .recoveryCode)
        #expect(events[9].actor == .user(user.uid) && events[10].actor == .user(user.uid), "a new password ends the user's other sessions")

        // Nothing secret in any field of any event.
        let secrets = [Self.password, "a new correct horse", "not the password", secret.sharedSecretKey(), typedWrongCode] + codes
        for event in events {
            let fields = [event.userID, event.factorID, event.provider, event.clientAddress, event.userAgent, event.reason, event.actor.description]
            for field in fields.compactMap({ $0 }) {
                for secret in secrets { #expect(!field.contains(secret), "\(event.kind) holds a secret") }
            }
        }
    }

    @Test("an administrator's changes name the administrator and the reason; deleting an account keeps its events")
    func administrator() async throws {
        let fixture = try Self.fixture()
        let administration = fixture.service.administration
        let user = try await fixture.service.createUser(withEmail: "bob@example.com", password: Self.password)
        let admin = AuditContext(actor: .administrator("ops@example.com"), clientAddress: "192.0.2.1", reason: "reported stolen laptop")
        try await AuditContext.with(admin) {
            _ = try await administration.updateAccount(id: user.uid, isDisabled: true, tokensValidAfter: fixture.clock.now())
            _ = try await administration.updateAccount(id: user.uid, isDisabled: false)
            #expect(try await administration.deleteAccount(id: user.uid))
        }
        let events = try await Self.events(fixture, of: user.uid)
        #expect(events.map(\.kind) == [.accountCreated, .signedIn, .accountDisabled, .sessionsRevoked, .accountEnabled, .accountDeleted])
        for event in events.dropFirst(2) {
            #expect(event.actor == .administrator("ops@example.com"))
            #expect(event.reason == "reported stolen laptop")
            #expect(event.clientAddress == "192.0.2.1")
        }
        #expect(
            try await administration.auditEvents(AuditQuery(actor: .administrator("ops@example.com"))).count == 4,
            "the administrator's actions, found by actor")
        // Without a context, an operator's call is the system's.
        let other = try await fixture.service.createUser(withEmail: "cy@example.com", password: Self.password)
        _ = try await administration.deleteAccount(id: other.uid)
        #expect(try await Self.events(fixture, of: other.uid).last?.actor == .system)
    }

    @Test("removing factors records each, of its own kind; a refused enrollment records nothing")
    func factors() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.signIn()
        let (_, first) = try await fixture.enroll(user)
        let (_, second) = try await fixture.enroll(user, displayName: "Backup")
        let session = try await user.multiFactor.session()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        await #expect(throws: AuthError.self) {
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.wrongCode(secret)), displayName: nil)
        }
        try await user.multiFactor.unenroll(with: first)
        let events = try await Self.events(fixture, of: user.uid)
        #expect(events.map(\.kind) == [.signedIn, .factorEnrolled, .factorEnrolled, .factorRemoved])
        #expect(events.map(\.factorID) == [nil, first.uid, second.uid, first.uid])
        #expect(events.last?.factorKind == .totp)
    }

    @Test("off, nothing is recorded; on, events older than the retention go at the purge")
    func switchedOffAndRetention() async throws {
        let off = try Self.fixture(AuditSettings(isEnabled: false))
        let quiet = try await off.service.createUser(withEmail: "dee@example.com", password: Self.password)
        #expect(try await Self.events(off, of: quiet.uid).isEmpty)

        let fixture = try Self.fixture(AuditSettings(retention: 3_600))
        let user = try await fixture.service.createUser(withEmail: "eve@example.com", password: Self.password)
        fixture.clock.advance(by: 3_000)
        try await user.signOut()
        try await fixture.service.purgeExpired()
        #expect(try await Self.events(fixture, of: user.uid).count == 3, "nothing older than an hour yet")
        fixture.clock.advance(by: 601)
        try await fixture.service.purgeExpired()
        #expect(try await Self.events(fixture, of: user.uid).map(\.kind) == [.signedOut], "the events of an hour and more ago purged")
    }

    @Test("a refused retention setting names it")
    func invalidRetention() {
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "auditLog.retention", seconds: 0)) {
            try MultiFactorConfiguration(auditLog: AuditSettings(retention: 0)).validate()
        }
    }

    @Test("a user agent and a reason are cut to their limits")
    func limits() {
        let event = AuditEvent(
            time: 1, kind: .accountDisabled, userID: "u", actor: .system, userAgent: String(repeating: "a", count: 1_000),
            reason: String(repeating: "r", count: 10_000))
        #expect(event.userAgent?.count == AuditEvent.maximumUserAgentLength)
        #expect(event.reason?.count == AuditEvent.maximumReasonLength)
        for actor in [AuditActor.user("u:1"), .administrator("ops"), .anonymous, .system] {
            #expect(AuditActor(description: actor.description) == actor)
        }
        #expect(AuditActor(description: "root") == nil)
    }
}
