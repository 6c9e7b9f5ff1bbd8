import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import Testing

/// The audit log on SQLite: its events ride in the commits of the changes they record.
@Suite("Audit log on SQLite")
struct AuditOnSQLiteTests {
    /// One user with a TOTP factor on `store`, through a service with `auditLog`: the service, the
    /// clock, the secret and the factor's id.
    static func enrolled(_ store: SQLiteAuthStore, _ userID: String, auditLog: AuditSettings) async throws
        -> (MultiFactorService, ManualAuthClock, TOTPSecret, String)
    {
        let clock = ManualAuthClock(1_800_000_010)
        let service = try MultiFactorService(configuration: MultiFactorConfiguration(auditLog: auditLog), store: store, clock: clock)
        let user = try await service.signIn(
            FirstFactorIdentity(userID: userID, email: "\(userID)@example.com", isEmailVerified: true, provider: .password))
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(
                with: secret, oneTimePassword: try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey())).code(at: clock.now())),
            displayName: nil)
        return (service, clock, secret, try #require(user.multiFactor.enrolledFactors.first).uid)
    }

    /// The commits of `rounds` sign-ins one after the other, each a wrong code and then the right one.
    static func commits(
        of rounds: Int, _ store: SQLiteAuthStore, _ fixture: (MultiFactorService, ManualAuthClock, TOTPSecret, String), userID: String
    ) async throws -> Int {
        let (service, clock, secret, factorID) = fixture
        let identity = FirstFactorIdentity(userID: userID, email: "\(userID)@example.com", isEmailVerified: true, provider: .password)
        let before = store.committedTransactions
        for _ in 0..<rounds {
            clock.advance(by: 30)
            let error = await #expect(throws: AuthError.self) { try await service.signIn(identity) }
            let resolver = try #require(error?.resolver)
            let code = try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey())).code(at: clock.now())
            let wrong = String(code.reversed()) == code ? "000000" : String(code.reversed())
            await #expect(throws: AuthError.self) {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factorID, oneTimePassword: wrong))
            }
            _ = try await resolver.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factorID, oneTimePassword: code))
        }
        return store.committedTransactions - before
    }

    @Test("a sign-in and a wrong code take as many commits with their events as without")
    func noExtraCommit() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let audited = try await Self.enrolled(store, "audited", auditLog: AuditSettings())
        let quiet = try await Self.enrolled(store, "quiet", auditLog: AuditSettings(isEnabled: false))
        let withEvents = try await Self.commits(of: 10, store, audited, userID: "audited")
        let without = try await Self.commits(of: 10, store, quiet, userID: "quiet")
        #expect(withEvents == without, "commits of ten sign-ins with a wrong code each: \(withEvents) with events, \(without) without")
        let events = try await store.auditEvents(AuditQuery(userID: "audited", kinds: [.signedIn, .signInFailed], since: 1_800_000_040))
        #expect(events.filter { $0.kind == .signedIn }.count == 10 && events.filter { $0.kind == .signInFailed }.count == 10)
        #expect(try await store.auditEvents(AuditQuery(userID: "quiet")).isEmpty)
        try await store.close()
    }
}
