import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import Testing

/// The multi-factor service on the SQLite store: what a server runs.
@Suite("MultiFactorService on SQLite")
struct ServiceOnSQLiteTests {
    static let start: Int64 = 1_800_000_010

    static let alice = FirstFactorIdentity(userID: "alice", email: "alice@example.com", isEmailVerified: true, provider: .password)

    static func code(_ secret: TOTPSecret, at time: Int64) throws -> String {
        try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey())).code(at: time)
    }

    static func resolver(_ service: MultiFactorService) async throws -> MultiFactorResolver {
        let error = await #expect(throws: AuthError.self) { try await service.signIn(alice) }
        #expect(error?.code == .secondFactorRequired)
        return try #require(error?.resolver)
    }

    @Test("enroll through the service, restart (new store, new service), sign in, and the code is not accepted twice")
    func enrollRestartSignIn() async throws {
        let database = try TestDatabase()
        let clock = ManualAuthClock(Self.start)
        let firstStore = try await database.open()
        let first = try MultiFactorService(store: firstStore, clock: clock)
        let user = try await first.signIn(Self.alice)
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try Self.code(secret, at: clock.now())),
            displayName: "Phone"
        )
        let info = try #require(user.multiFactor.enrolledFactors.first)
        try await firstStore.close()

        clock.advance(by: 30)
        let secondStore = try await database.open()
        let second = try MultiFactorService(store: secondStore, clock: clock)
        let resolver = try await Self.resolver(second)
        #expect(resolver.hints == [info])
        let code = try Self.code(secret, at: clock.now())
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: code))
        #expect(result.user.secondFactorIdentifier == info.uid)
        try await secondStore.close()

        let thirdStore = try await database.open()
        let third = try MultiFactorService(store: thirdStore, clock: clock)
        let again = try await Self.resolver(third)
        let error = await #expect(throws: AuthError.self) {
            try await again.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: code))
        }
        #expect(error?.code == .invalidVerificationCode)
        try await thirdStore.close()
    }

    @Test("two services on two connections to one file, 100 concurrent sign-ins with one code: exactly one succeeds")
    func twoServicesOneFile() async throws {
        let database = try TestDatabase()
        let clock = ManualAuthClock(Self.start)
        let configuration = MultiFactorConfiguration(maximumConsecutiveFailures: 1_000)
        let stores = [try await database.open(), try await database.open()]
        let services = try stores.map { try MultiFactorService(configuration: configuration, store: $0, clock: clock) }
        let user = try await services[0].signIn(Self.alice)
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try Self.code(secret, at: clock.now())),
            displayName: nil
        )
        let enrollmentID = try #require(user.multiFactor.enrolledFactors.first?.uid)
        clock.advance(by: 30)
        var resolvers: [MultiFactorResolver] = []
        for index in 0..<100 { resolvers.append(try await Self.resolver(services[index % 2])) }
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(
            withEnrollmentID: enrollmentID, oneTimePassword: try Self.code(secret, at: clock.now()))
        let outcomes = await withTaskGroup(of: AuthErrorCode?.self) { group in
            for resolver in resolvers {
                group.addTask {
                    do throws(AuthError) {
                        _ = try await resolver.resolveSignIn(with: assertion)
                        return nil
                    } catch {
                        return error.code
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1)
        // Each loser had its own pending credential and a failure limit it cannot reach: the code
        // was spent, nothing else (not a busy database) stopped it.
        #expect(outcomes.filter { $0 == .invalidVerificationCode }.count == 99, "\(outcomes)")
        for store in stores { try await store.close() }
    }
}
