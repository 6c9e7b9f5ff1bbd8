import Foundation
import OTPCore
import OTPEnrollment
import OTPEnrollmentSQLite
import OTPSealing
import Testing

/// A scratch directory with a database path and a sealing key, removed when the test ends.
final class TestDatabase: Sendable {
    let directory: String
    let path: String
    let keyHex: String
    let key: SealingKey

    init() throws {
        directory = NSTemporaryDirectory() + "otpkit-sqlite-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        path = directory + "/enrollments.sqlite"
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
        keyHex = bytes.map { String(format: "%02x", $0) }.joined()
        key = try SealingKey(bytes: bytes)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func open(previous: [SealingKey] = [], current: SealingKey? = nil) async throws -> SQLiteEnrollmentStore {
        try await SQLiteEnrollmentStore.open(path: path, sealer: SecretSealer(current: current ?? key, previous: previous))
    }

    /// Every file SQLite keeps for the database: the file itself, its WAL and shared-memory index.
    func fileContents() throws -> [UInt8] {
        try FileManager.default.contentsOfDirectory(atPath: directory).flatMap { name in
            Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
        }
    }
}

/// Runs `body` on a store in a fresh database and closes it afterwards.
func withStore<Result>(_ body: (SQLiteEnrollmentStore) async throws -> Result) async throws -> Result {
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
    _ store: SQLiteEnrollmentStore,
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

/// A finished run of another program.
struct ProcessResult {
    let status: Int32
    let reason: Process.TerminationReason
    let output: String
    let errors: String
}

enum TestHelper {
    /// The helper executable built beside the test bundle.
    static func path() throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let path = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("OTPEnrollmentSQLiteTestHelper").path
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "the test helper \(path) is missing: build it with `swift build` (Tests/test.sh does)"
        )
        return path
    }

    /// Starts the helper (optionally through `prefix`, such as setpriv) with the database key in its environment.
    /// `executable` replaces the helper's build path (for a copy elsewhere).
    static func start(_ arguments: [String], keyHex: String, prefix: [String] = [], output: String, errors: String, executable: String? = nil) throws -> Process {
        let process = Process()
        let command = prefix + [try executable ?? path()] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment[SealingKey.defaultEnvironmentVariable] = keyHex
        process.environment = environment
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        return process
    }

    static func run(_ arguments: [String], keyHex: String, prefix: [String] = [], scratch: String, executable: String? = nil) throws -> ProcessResult {
        let output = scratch + "/helper-\(UUID().uuidString).out"
        let errors = scratch + "/helper-\(UUID().uuidString).err"
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: errors)
        }
        let process = try start(arguments, keyHex: keyHex, prefix: prefix, output: output, errors: errors, executable: executable)
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            reason: process.terminationReason,
            output: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
            errors: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        )
    }
}

extension Array where Element == UInt8 {
    /// Whether `subsequence` occurs anywhere in the bytes (Foundation's search: the files are megabytes).
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty else { return false }
        return Data(self).range(of: Data(subsequence)) != nil
    }
}
