import Benchmark
import Foundation
import Logging
import OTPAuthentication
import OTPAuthenticationSQLite

nonisolated(unsafe) var importService: MultiFactorService!
nonisolated(unsafe) var importStore: SQLiteAuthStore!
nonisolated(unsafe) var importRound = 0

/// Moving users from Firebase, on SQLite in one run (issue 39):
/// - an import of 1,000 users with Firebase-scrypt hashes (`importAccounts`, as
///   `accounts:batchCreate` calls it) beside the raw insertion of the same accounts into the same
///   store: the import must be bounded by the store, as no hash is checked until its user signs in;
/// - the first sign-in of an imported user (one Firebase-scrypt check, then a re-hash at this
///   server's cost) beside a sign-in with a password already in OTPKit's form.
///
/// The hashes are firebase/scrypt's README example (`user1password` under its published project
/// parameters), one for every user, each under a uid and address of its own.
func registerImportBenchmarks() {
    let config = try! FirebaseHashConfig(
        signerKey: Array(Data(base64Encoded: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!),
        saltSeparator: [0x07], rounds: 8, memoryCost: 14)
    let salt = Array(Data(base64Encoded: "42xEC+ixf3L2lw==")!)
    let hash = try! PasswordHasher.firebaseScryptHash(try! config.hash("user1password", salt: salt), salt: salt, config: config)
    func accounts(_ round: Int) -> [ImportedAccount] {
        (0..<1000).map { ImportedAccount(id: "r\(round)-\($0)", email: "r\(round)-\($0)@example.com", passwordHash: hash) }
    }
    func setUp() async throws {
        let key = try makeSQLiteDirectory()
        var logger = Logger(label: "OTPKitBenchmarks")
        logger.logLevel = .critical
        importStore = try await openSQLiteStore(key: key)
        importService = try MultiFactorService(
            configuration: MultiFactorConfiguration(
                maximumConsecutiveFailures: .max, passwords: PasswordSettings(firebaseHashConfigs: [config])),
            store: importStore, logger: logger)
        importRound = 0
    }
    let batches = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .cpuTotal], warmupIterations: 1, scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("otpkit.enrollment.import.sqlite.firebase-scrypt", configuration: batches) { benchmark in
        importRound += 1
        let batch = accounts(importRound)
        benchmark.startMeasurement()
        let failures = try await importService.administration.importAccounts(batch)
        benchmark.stopMeasurement()
        precondition(failures.isEmpty, "\(failures.prefix(3))")
    } setup: {
        try await setUp()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }
    Benchmark("otpkit.enrollment.import.sqlite.raw-insert", configuration: batches) { benchmark in
        importRound += 1
        let records = accounts(importRound).map {
            AccountRecord(id: $0.id, email: $0.email, createdAt: 1_800_000_000, passwordHash: $0.passwordHash)
        }
        benchmark.startMeasurement()
        for record in records {
            let inserted = try await importStore.insertAccount(record)
            precondition(inserted == .inserted)
        }
        benchmark.stopMeasurement()
    } setup: {
        try await setUp()
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }

    // Sign-ins: every iteration a user of its own, so that each first sign-in finds the imported
    // hash, and the plain one a hash already in OTPKit's form.
    let signIns = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal], warmupIterations: 2, maxDuration: .seconds(10), maxIterations: 30)
    Benchmark("otpkit.enrollment.password.imported-first", configuration: signIns) { benchmark in
        importRound += 1
        blackHole(try await importService.signIn(withEmail: "r0-\(importRound)@example.com", password: "user1password"))
    } setup: {
        try await setUp()
        let failures = try await importService.administration.importAccounts(accounts(0))
        precondition(failures.isEmpty, "\(failures.prefix(3))")
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }
    Benchmark("otpkit.enrollment.password.native", configuration: signIns) { _ in
        blackHole(try await importService.signIn(withEmail: "native@example.com", password: "user1password"))
    } setup: {
        try await setUp()
        _ = try await importService.createUser(withEmail: "native@example.com", password: "user1password")
    } teardown: {
        try? FileManager.default.removeItem(at: sqliteDirectory)
    }
}
