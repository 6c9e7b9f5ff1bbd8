import Foundation
import OTPCore
import OTPEnrollment
import OTPEnrollmentSQLite
import OTPSealing
import SQLiteNIO
import Testing

@Suite("SQLite store: bad input is a clear error")
struct BadInputTests {
    @Test("a file of random bytes is not a database")
    func randomFile() async throws {
        let database = try TestDatabase()
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: database.path))
        let error = await #expect(throws: SQLiteEnrollmentStoreError.notADatabase(path: database.path)) { try await database.open() }
        #expect(error?.description.contains("is not an SQLite database") == true)
    }

    @Test("a database whose pages were overwritten is reported corrupt")
    func damagedPages() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        for index in 0..<200 { try await enroll(store, id: "factor-\(index)", userID: "user-\(index)") }
        try await store.close()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: database.path)))
        try #require(bytes.count > 8 * 4096)
        // Leave the header page; scribble over the b-tree pages after it.
        for index in 4096..<(bytes.count - 4096) where index % 7 == 0 { bytes[index] = 0xA5 }
        try Data(bytes).write(to: URL(fileURLWithPath: database.path))
        let error = await #expect(throws: SQLiteEnrollmentStoreError.self) { try await database.open() }
        switch error {
        case .corrupt(let path, _)?, .notADatabase(let path)?:
            #expect(path == database.path)
            #expect(error?.description.contains("corrupt") == true || error?.description.contains("not an SQLite database") == true)
        default:
            Issue.record("expected a corruption error, got \(String(describing: error))")
        }
    }

    @Test("a missing directory names the directory")
    func missingDirectory() async throws {
        let path = NSTemporaryDirectory() + "otpkit-missing-\(UUID().uuidString)/enrollments.sqlite"
        let sealer = try SecretSealer(current: SealingKey(bytes: Array(repeating: 7, count: 32)))
        let error = await #expect(throws: SQLiteEnrollmentStoreError.self) { try await SQLiteEnrollmentStore.open(path: path, sealer: sealer) }
        guard case .cannotOpen(path, let reason)? = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("does not exist"))
    }

    @Test("a directory where the file should be is named as such")
    func pathIsDirectory() async throws {
        let database = try TestDatabase()
        try FileManager.default.createDirectory(atPath: database.path, withIntermediateDirectories: false)
        let error = await #expect(throws: SQLiteEnrollmentStoreError.self) { try await database.open() }
        #expect(error == .cannotOpen(path: database.path, reason: "it is a directory"))
    }

    @Test("another application's SQLite database is refused, untouched")
    func foreignDatabase() async throws {
        let database = try TestDatabase()
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        }
        await #expect(throws: SQLiteEnrollmentStoreError.notAnOTPKitDatabase(path: database.path)) { try await database.open() }
        let tables = try await RawDatabase.with(database.path) { try await $0.value("SELECT group_concat(name) FROM sqlite_schema") }
        #expect(tables == "photos")
    }

    @Test("a schema from a newer OTPKit is refused with both versions")
    func newerSchema() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("INSERT INTO otpkit_migrations VALUES (3, 'from the future', 'x', 0)")
        }
        let error = await #expect(throws: SQLiteEnrollmentStoreError.schemaTooNew(path: database.path, version: 3, supported: 2)) {
            try await database.open()
        }
        #expect(error?.description.contains("upgrade OTPKit") == true)
    }

    @Test("a shipped migration that changed is detected")
    func changedMigration() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("UPDATE otpkit_migrations SET checksum = 'edited' WHERE version = 1")
        }
        await #expect(throws: SQLiteEnrollmentStoreError.migrationChanged(path: database.path, version: 1)) { try await database.open() }
    }

    @Test("a read-only directory: a new database cannot be created there")
    func readOnlyDirectoryNewFile() throws {
        let database = try TestDatabase()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: database.directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: database.directory) }
        let result = try runAsUnprivileged(["open", database.path], database: database)
        #expect(result.status == 1)
        #expect(result.errors.contains("enrollment database \(database.path) is read-only"), "stderr: \(result.errors)")
        #expect(result.errors.contains("not writable"), "stderr: \(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }

    @Test("a read-only directory: an existing database cannot be written there")
    func readOnlyDirectoryExistingFile() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        try await enroll(store)
        try await store.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: database.directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: database.directory) }
        let result = try runAsUnprivileged(["open", database.path], database: database)
        #expect(result.status == 1)
        #expect(result.errors.contains("is read-only"), "stderr: \(result.errors)")
        #expect(result.errors.contains("must be writable"), "stderr: \(result.errors)")
    }

    @Test("a wrong key through the helper process: a clear message, exit status 1, no key printed")
    func wrongKeyProcess() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        try await enroll(store)
        try await store.close()
        let wrongHex = String(repeating: "5a", count: 32)
        let result = try TestHelper.run(["open", database.path], keyHex: wrongHex, scratch: database.directory)
        #expect(result.status == 1)
        #expect(result.errors.contains("holds secrets sealed under key \(database.key.id)"), "stderr: \(result.errors)")
        #expect(!result.errors.contains(wrongHex) && !result.errors.contains(database.keyHex))
        let missing = try TestHelper.run(["open", database.path], keyHex: "", scratch: database.directory)
        #expect(missing.status == 1)
        #expect(missing.errors.contains("no sealing key"), "stderr: \(missing.errors)")
    }

    /// Root ignores file permissions, so as root the helper runs as `nobody` (setpriv, util-linux),
    /// from a copy in a world-readable directory (the checkout may sit under a private home).
    func runAsUnprivileged(_ arguments: [String], database: TestDatabase) throws -> ProcessResult {
        guard getuid() == 0 else {
            return try TestHelper.run(arguments, keyHex: database.keyHex, scratch: NSTemporaryDirectory())
        }
        let directory = NSTemporaryDirectory() + "otpkit-helper-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/helper"
        try FileManager.default.copyItem(atPath: try TestHelper.path(), toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        let prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        return try TestHelper.run(arguments, keyHex: database.keyHex, prefix: prefix, scratch: NSTemporaryDirectory(), executable: copy)
    }
}
