import Benchmark
import Foundation
import Logging
import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import OTPSealing

/// Users with one enrolled TOTP factor each, on a service whose clock the benchmark moves on by a
/// step per sign-in, so every code is fresh (a replayed code would be refused). Sign-ins take the
/// users in turn, so with more than a few users each verification finds the user's last accepted
/// step far behind and checks the whole window, as on a server where people sign in hours apart.
final class SignInFixture: @unchecked Sendable {
    struct Account {
        let identity: FirstFactorIdentity
        var authenticator: TOTP
        var enrollmentID: String
    }

    let clock = ManualAuthClock(1_800_000_000)
    let service: MultiFactorService
    private let userIDs: [String]
    private var accounts: [Account] = []
    private var next = 0

    init(store: any AuthStore, userIDs: [String] = ["alice"], auditLog: AuditSettings = AuditSettings()) throws {
        self.userIDs = userIDs
        var logger = Logger(label: "OTPKitBenchmarks")
        logger.logLevel = .critical
        service = try MultiFactorService(configuration: MultiFactorConfiguration(auditLog: auditLog), store: store, clock: clock, logger: logger)
    }

    convenience init(store: any AuthStore, users: Int) throws {
        try self.init(store: store, userIDs: (0..<users).map { "user-\($0)" })
    }

    func enroll() async throws {
        for userID in userIDs {
            let identity = FirstFactorIdentity(userID: userID, email: "\(userID)@example.com", isEmailVerified: true, provider: .password)
            let user = try await service.signIn(identity)
            let session = try await user.multiFactor.session()
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
            let authenticator = try TOTP(
                secret: OTPSecret(base32: secret.sharedSecretKey()),
                algorithm: OTPAlgorithm(name: secret.hashingAlgorithm)!,
                digits: secret.codeLength,
                period: Int64(secret.codeIntervalSeconds)
            )
            let code = try authenticator.code(at: clock.now())
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
            accounts.append(Account(identity: identity, authenticator: authenticator, enrollmentID: user.multiFactor.enrolledFactors.last!.uid))
        }
    }

    var firstAuthenticator: TOTP { accounts[0].authenticator }

    /// First factor accepted, second factor required, then the code checked: what a login costs.
    func signIn() async throws {
        clock.advance(by: 30)
        let (resolver, assertion) = try await startSignIn()
        _ = try await resolver.resolveSignIn(with: assertion)
    }

    /// The first steps of `count` sign-ins of different users, all in one new time step, with the
    /// assertion each will complete with (for a benchmark of the second step alone).
    func startSignIns(_ count: Int) async throws -> [(MultiFactorResolver, TOTPMultiFactorAssertion)] {
        precondition(count <= accounts.count, "one sign-in per user and time step")
        clock.advance(by: 30)
        var started: [(MultiFactorResolver, TOTPMultiFactorAssertion)] = []
        started.reserveCapacity(count)
        for _ in 0..<count {
            started.append(try await startSignIn())
        }
        return started
    }

    /// The next user's first step, and the assertion with the code the user's app shows now.
    private func startSignIn() async throws -> (MultiFactorResolver, TOTPMultiFactorAssertion) {
        let account = accounts[next]
        next = next + 1 == accounts.count ? 0 : next + 1
        return try await startSignIn(account)
    }

    private func startSignIn(_ account: Account) async throws -> (MultiFactorResolver, TOTPMultiFactorAssertion) {
        let code = try account.authenticator.code(at: clock.now())
        do {
            _ = try await service.signIn(account.identity)
            fatalError("the user has a second factor")
        } catch {
            return (error.resolver!, TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: account.enrollmentID, oneTimePassword: code))
        }
    }
}

extension SignInFixture {
    /// Every user signs in once, in a new time step, from `clients` concurrent clients that take
    /// the users in turn (client `c` the users `c`, `c + clients`, …), as requests of a busy server
    /// would. Returns each sign-in's latency in nanoseconds.
    func signInEveryone(clients: Int) async throws -> [Int] {
        clock.advance(by: 30)
        return try await withThrowingTaskGroup(of: [Int].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var latencies: [Int] = []
                    for index in stride(from: client, to: self.accounts.count, by: clients) {
                        let started = ContinuousClock.now
                        let (resolver, assertion) = try await self.startSignIn(self.accounts[index])
                        _ = try await resolver.resolveSignIn(with: assertion)
                        let elapsed = (ContinuousClock.now - started).components
                        latencies.append(Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000))
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }
}

nonisolated(unsafe) var memoryFixture: SignInFixture!
nonisolated(unsafe) var sqliteFixture: SignInFixture!
nonisolated(unsafe) var sqliteDirectory: URL!
nonisolated(unsafe) var sqlitePair: (SignInFixture, SignInFixture)!

/// A store on a fresh database file in a temporary directory (`sqliteDirectory`).
func openSQLiteStore(key: SealingKey, options: SQLiteAuthStore.Options = .init()) async throws -> SQLiteAuthStore {
    try await SQLiteAuthStore.open(
        path: sqliteDirectory.appendingPathComponent("enrollment.sqlite").path,
        sealer: SecretSealer(current: key),
        options: options
    )
}

func makeSQLiteDirectory() throws -> SealingKey {
    sqliteDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("otpkit-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: sqliteDirectory, withIntermediateDirectories: true)
    return try SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
}

func registerSignInBenchmarks() {
    // A thousand sign-ins per iteration: the harness starts every iteration on a new task, and a
    // server's request handler already runs on one, so that start stays out of the figure. Ten
    // thousand users, so the store's tables have a server's size.
    let batched = Benchmark.Configuration(scalingFactor: .kilo)
    Benchmark("otpkit.enrollment.signin.memory", configuration: batched) { benchmark in
        for _ in benchmark.scaledIterations {
            try await memoryFixture.signIn()
        }
    } setup: {
        memoryFixture = try SignInFixture(store: InMemoryAuthStore(), users: 10_000)
        try await memoryFixture.enroll()
    }

    // The second step alone (`resolveSignIn`: the verification and its store call), with the
    // thousand first steps of each iteration done outside the measurement.
    Benchmark("otpkit.enrollment.signin.memory.second", configuration: batched) { benchmark in
        let started = try await memoryFixture.startSignIns(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for (resolver, assertion) in started {
            _ = try await resolver.resolveSignIn(with: assertion)
        }
        benchmark.stopMeasurement()
    } setup: {
        memoryFixture = try SignInFixture(store: InMemoryAuthStore(), users: 10_000)
        try await memoryFixture.enroll()
    }

    // For scale, in the same process: the ±5 verification alone, on one of those users' keys, at
    // steps nobody signed in with (a miss checks every candidate, as a sign-in's verification does).
    Benchmark("otpkit.enrollment.verify.w5.miss", configuration: batched) { benchmark in
        let authenticator = memoryFixture.firstAuthenticator
        for index in benchmark.scaledIterations {
            blackHole(try authenticator.verify("000000", at: 1_900_000_000 + Int64(index) * 30, window: .firebaseDefault))
        }
    } setup: {
        memoryFixture = try SignInFixture(store: InMemoryAuthStore(), users: 1)
        try await memoryFixture.enroll()
    }

    Benchmark("otpkit.enrollment.signin.sqlite") { _ in
        try await sqliteFixture.signIn()
    } setup: {
        let key = try makeSQLiteDirectory()
        sqliteFixture = try await SignInFixture(store: openSQLiteStore(key: key))
        try await sqliteFixture.enroll()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }

    // Two servers, each with its own service and connection, sign in two users on one database
    // file at the same time: two sign-ins per iteration, on both cores.
    Benchmark("otpkit.enrollment.signin.sqlite.2cores") { _ in
        async let first: Void = sqlitePair.0.signIn()
        async let second: Void = sqlitePair.1.signIn()
        _ = try await (first, second)
    } setup: {
        let key = try makeSQLiteDirectory()
        sqlitePair = (
            try await SignInFixture(store: openSQLiteStore(key: key), userIDs: ["alice"]),
            try await SignInFixture(store: openSQLiteStore(key: key), userIDs: ["bob"])
        )
        try await sqlitePair.0.enroll()
        try await sqlitePair.1.enroll()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }
}
