import Benchmark
import Foundation
import Logging
import OTPCore
import OTPEnrollment
import OTPEnrollmentSQLite
import OTPSealing

/// One user with one enrolled TOTP factor on a service whose clock the benchmark moves on by a
/// step per sign-in, so every code is fresh (a replayed code would be refused).
final class SignInFixture: @unchecked Sendable {
    let clock = ManualEnrollmentClock(1_800_000_000)
    let service: MultiFactorService
    let identity = FirstFactorIdentity(userID: "alice", email: "alice@example.com", isEmailVerified: true, provider: .password)
    var authenticator: TOTP!
    var enrollmentID = ""

    init(store: any EnrollmentStore) throws {
        var logger = Logger(label: "OTPKitBenchmarks")
        logger.logLevel = .critical
        service = try MultiFactorService(store: store, clock: clock, logger: logger)
    }

    func enroll() async throws {
        let user = try await service.signIn(identity)
        let session = try await user.multiFactor.session()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        authenticator = try TOTP(
            secret: OTPSecret(base32: secret.sharedSecretKey()),
            algorithm: OTPAlgorithm(name: secret.hashingAlgorithm)!,
            digits: secret.codeLength,
            period: Int64(secret.codeIntervalSeconds)
        )
        let code = try authenticator.code(at: clock.now())
        try await user.multiFactor.enroll(with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
        enrollmentID = user.multiFactor.enrolledFactors.last!.uid
    }

    /// First factor accepted, second factor required, then the code checked: what a login costs.
    func signIn() async throws {
        clock.advance(by: 30)
        let code = try authenticator.code(at: clock.now())
        let resolver: MultiFactorResolver
        do {
            _ = try await service.signIn(identity)
            fatalError("the user has a second factor")
        } catch {
            resolver = error.resolver!
        }
        _ = try await resolver.resolveSignIn(with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: enrollmentID, oneTimePassword: code))
    }
}

nonisolated(unsafe) var memoryFixture: SignInFixture!
nonisolated(unsafe) var sqliteFixture: SignInFixture!
nonisolated(unsafe) var sqliteDirectory: URL!

func registerSignInBenchmarks() {
    Benchmark("otpkit.enrollment.signin.memory") { _ in
        try await memoryFixture.signIn()
    } setup: {
        memoryFixture = try SignInFixture(store: InMemoryEnrollmentStore())
        try await memoryFixture.enroll()
    }

    Benchmark("otpkit.enrollment.signin.sqlite") { _ in
        try await sqliteFixture.signIn()
    } setup: {
        sqliteDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("otpkit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: sqliteDirectory, withIntermediateDirectories: true)
        let key = try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
        let store = try await SQLiteEnrollmentStore.open(
            path: sqliteDirectory.appendingPathComponent("enrollment.sqlite").path,
            sealer: SecretSealer(current: key)
        )
        sqliteFixture = try SignInFixture(store: store)
        try await sqliteFixture.enroll()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }
}
