import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import OTPSealing
import Testing

@Suite("Recovery codes on SQLite")
struct RecoveryCodesOnSQLiteTests {
    /// Enrolls alice's TOTP factor through `service` and returns her new recovery codes.
    static func enrollWithCodes(_ service: MultiFactorService, clock: ManualAuthClock) async throws -> [String] {
        let user = try await service.signIn(ServiceOnSQLiteTests.alice)
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(
                with: secret, oneTimePassword: try ServiceOnSQLiteTests.code(secret, at: clock.now())),
            displayName: nil)
        return try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await user.multiFactor.session())
    }

    @Test("codes are kept only as keyed digests: none in the database, its WAL or shared memory, in any form")
    func noCodesInClear() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let clock = ManualAuthClock(ServiceOnSQLiteTests.start)
        let codes = try await Self.enrollWithCodes(try MultiFactorService(store: store, clock: clock), clock: clock)
        for form in [{ (code: String) in code }, { $0.replacingOccurrences(of: "-", with: "") }, { $0.uppercased() }] {
            for code in codes {
                let text = form(code)
                #expect(try !database.fileContents().contains(subsequence: Array(text.utf8)), "\(text) found in the files")
            }
        }
        // Positive control: the search finds what is stored in clear.
        #expect(try database.fileContents().contains(subsequence: Array("alice".utf8)))
        #expect(try await store.recoveryCodeCount(userID: "alice") == 10)
        try await store.close()
    }

    @Test("codes survive a restart and a key rotation, before and after the old key is dropped, and each works once")
    func restartAndRotation() async throws {
        let database = try TestDatabase()
        let clock = ManualAuthClock(ServiceOnSQLiteTests.start)
        let first = try await database.open()
        let codes = try await Self.enrollWithCodes(try MultiFactorService(store: first, clock: clock), clock: clock)
        try await first.close()

        let newKey = try SealingKey.random()
        let rotating = try await database.open(previous: [database.key], current: newKey)
        let service = try MultiFactorService(store: rotating, clock: clock)
        let result = try await ServiceOnSQLiteTests.resolver(service).resolveSignIn(
            with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[0]))
        #expect(result.user.signInSecondFactor == RecoveryCodeMultiFactorID)
        #expect(try await rotating.resealAll() == 2, "the TOTP secret and the store's code digest key move")
        #expect(try await rotating.sealingKeyUsage() == [newKey.id: 2])
        try await rotating.close()

        let rotated = try await database.open(current: newKey)
        let afterRotation = try MultiFactorService(store: rotated, clock: clock)
        _ = try await ServiceOnSQLiteTests.resolver(afterRotation).resolveSignIn(
            with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[1]))
        let error = await #expect(throws: AuthError.self) {
            _ = try await ServiceOnSQLiteTests.resolver(afterRotation).resolveSignIn(
                with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[0]))
        }
        #expect(error?.code == .invalidVerificationCode, "a code spent before the restart")
        #expect(try await rotated.recoveryCodeCount(userID: "alice") == 8)
        try await rotated.close()
    }
}
