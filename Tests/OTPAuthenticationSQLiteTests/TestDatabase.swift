import Foundation
import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import OTPSealing
import OTPTestUtilities
import Testing

/// A scratch directory with a database path and a sealing key, removed when the test ends.
final class TestDatabase: Sendable {
    let scratch: TemporaryDirectory
    let path: String
    let keyHex: String
    let key: SealingKey

    var directory: String { scratch.path }

    init() throws {
        scratch = try TemporaryDirectory(prefix: "otpkit-sqlite")
        path = scratch.file("enrollments.sqlite")
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
        keyHex = bytes.map { String(format: "%02x", $0) }.joined()
        key = try SealingKey(bytes: bytes)
    }

    // Removed on release rather than by each test; TestHelper.run keeps it alive while a child runs.
    deinit {
        scratch.remove()
    }

    func open(previous: [SealingKey] = [], current: SealingKey? = nil) async throws -> SQLiteAuthStore {
        try await SQLiteAuthStore.open(path: path, sealer: SecretSealer(current: current ?? key, previous: previous))
    }

    /// Every file SQLite keeps for the database: the file itself, its WAL and shared-memory index.
    func fileContents() throws -> [UInt8] {
        try FileManager.default.contentsOfDirectory(atPath: directory).flatMap { name in
            Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        }
    }
}

/// Runs `body` on a store in a fresh database and closes it afterwards.
func withStore<Result>(_ body: (SQLiteAuthStore) async throws -> Result) async throws -> Result {
    let database = try TestDatabase()
    let store = try await database.open()
    do {
        let result = try await body(store)
        try await store.close()
        return result
    } catch {
        try? await store.close()
        throw error
    }
}

/// Enrolls a factor for `userID` through the store (pending enrollment, then finalization).
@discardableResult
func enroll(
    _ store: SQLiteAuthStore,
    id: String = "factor-\(UUID().uuidString)",
    userID: String = "user-1",
    secret: OTPSecret? = nil,
    algorithm: OTPAlgorithm = .sha1
) async throws -> FactorRecord {
    let secret = try secret ?? OTPSecret.random(for: algorithm)
    let pending = PendingEnrollmentRecord(
        id: "pending-\(id)", userID: userID, secret: secret, algorithm: algorithm, digits: 6, period: 30,
        createdAt: TOTP.currentUnixTime(), deadline: TOTP.currentUnixTime() + 600
    )
    try await store.insertPendingEnrollment(pending)
    let factor = FactorRecord(
        id: id, userID: userID, factorID: "totp", displayName: "phone", enrolledAt: TOTP.currentUnixTime(),
        secret: secret, algorithm: algorithm, digits: 6, period: 30, lastAcceptedStep: nil
    )
    try #require(try await store.finalizeEnrollment(pendingID: pending.id, factor: factor, maximumFactorCount: 5) == .enrolled)
    return factor
}

/// The helper executable (Tests/OTPAuthenticationStoreTestHelper) that plays a second process.
enum TestHelper {
    static func path() throws -> String {
        try BuiltProduct.path("OTPAuthenticationStoreTestHelper")
    }

    /// The helper's environment: the database key, where the helper reads it.
    static func environment(keyHex: String) -> [String: String?] {
        [SealingKey.defaultEnvironmentVariable: keyHex]
    }

    /// Runs the helper on `database` to its end (through `prefix`, such as setpriv, when given)
    /// with the database's key in its environment, or `keyHex` instead. `executable` replaces the
    /// built helper (for a copy elsewhere).
    static func run(
        _ arguments: [String], on database: TestDatabase, keyHex: String? = nil, prefix: [String] = [], executable: String? = nil
    ) async throws -> ProcessOutput {
        // Released earlier, the database would remove its directory under the running child.
        defer { withExtendedLifetime(database) {} }
        let command = prefix + [try executable ?? path()] + arguments
        return try await ProcessRunner.run(
            command[0], Array(command.dropFirst()), environment: environment(keyHex: keyHex ?? database.keyHex))
    }
}

extension Array where Element == UInt8 {
    /// Whether `subsequence` occurs anywhere in the bytes (Foundation's search: the files are megabytes).
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty else { return false }
        return Data(self).range(of: Data(subsequence)) != nil
    }
}
