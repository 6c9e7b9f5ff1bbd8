import Foundation
import OTPCore
import OTPAuthentication
@testable import OTPAuthenticationSQLite
import OTPSealing
import OTPTestUtilities
import SQLiteNIO
import Testing

@Suite("SQLite store: bad input is a clear error")
struct BadInputTests {
    @Test("a file of random bytes is not a database")
    func randomFile() async throws {
        let database = try TestDatabase()
        try Data((0..<8192).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: database.path))
        let error = await #expect(throws: SQLiteAuthStoreError.notADatabase(path: database.path)) { try await database.open() }
        #expect(
            error?.description
                == "\(database.path) is not an SQLite database (corrupt or another kind of file): restore it from a backup or point to another file")
    }

    @Test("a database whose pages were overwritten is reported corrupt")
    func damagedPages() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        for index in 0..<200 { try await enroll(store, id: "factor-\(index)", userID: "user-\(index)") }
        try await store.close()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: database.path)))
        try #require(bytes.count > 8 * 4096)
        // Damage every page but the schema's, so SQLite can still read the schema and open the file:
        // page 1 is the schema's root, and when the schema outgrew it, an interior page whose
        // cells point at its children (the b-tree page layout of sqlite.org/fileformat.html).
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        var schemaPages: Set<Int> = [1]
        if bytes[100] == 0x05 {
            let cellCount = Int(bytes[103]) << 8 | Int(bytes[104])
            let child = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
            schemaPages.insert(child(108))
            for cell in 0..<cellCount {
                schemaPages.insert(child(Int(bytes[112 + 2 * cell]) << 8 | Int(bytes[113 + 2 * cell])))
            }
        }
        for page in 1...(bytes.count / pageSize) where !schemaPages.contains(page) {
            for index in ((page - 1) * pageSize)..<(page * pageSize) where index % 7 == 0 { bytes[index] = 0xA5 }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: database.path))
        let error = await #expect(throws: SQLiteAuthStoreError.self) { try await database.open() }
        // The header page is intact, so SQLite opens the file and the start-up quick_check finds
        // the damage; the error carries its first three findings. SQLite words them, so they are
        // taken from SQLite itself rather than written out here.
        let findings = try await RawDatabase.with(database.path) { connection in
            try await connection.query("PRAGMA quick_check").compactMap { $0.columns.first?.data.string }
                .flatMap { $0.split(separator: "\n").map(String.init) }
        }
        try #require(findings != ["ok"], "quick_check found nothing: the damage missed every page")
        try #require(findings.count > 3, "the damage should give more problems than the message shows")
        let detail = findings.prefix(3).joined(separator: "; ")
        #expect(!detail.contains("\n"), "one line: \(detail)")
        #expect(error == .corrupt(path: database.path, detail: detail))
        #expect(error?.description == "enrollment database \(database.path) is corrupt (\(detail)): restore it from a backup")
    }

    @Test("a missing directory names the directory")
    func missingDirectory() async throws {
        let directory = NSTemporaryDirectory() + "otpkit-missing-\(UUID().uuidString)"
        let path = directory + "/enrollments.sqlite"
        let sealer = try SecretSealer(current: SealingKey(bytes: Array(repeating: 7, count: 32)))
        let error = await #expect(throws: SQLiteAuthStoreError.self) { try await SQLiteAuthStore.open(path: path, sealer: sealer) }
        #expect(error == .cannotOpen(path: path, reason: "directory \(directory) does not exist"))
        #expect(error?.description == "cannot open enrollment database \(path): directory \(directory) does not exist")
    }

    @Test("a directory where the file should be is named as such")
    func pathIsDirectory() async throws {
        let database = try TestDatabase()
        try FileManager.default.createDirectory(atPath: database.path, withIntermediateDirectories: false)
        let error = await #expect(throws: SQLiteAuthStoreError.self) { try await database.open() }
        #expect(error == .cannotOpen(path: database.path, reason: "it is a directory"))
    }

    @Test("another application's SQLite database is refused, untouched")
    func foreignDatabase() async throws {
        let database = try TestDatabase()
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
        }
        await #expect(throws: SQLiteAuthStoreError.notAnOTPKitDatabase(path: database.path)) { try await database.open() }
        let tables = try await RawDatabase.with(database.path) { try await $0.value("SELECT group_concat(name) FROM sqlite_schema") }
        #expect(tables == "photos")
    }

    @Test("a schema from a newer OTPKit is refused with both versions")
    func newerSchema() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        let supported = SQLiteAuthStore.migrations.count
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("INSERT INTO otpkit_migrations VALUES (?, 'from the future', 'x', 0)", [.integer(supported + 1)])
        }
        let error = await #expect(throws: SQLiteAuthStoreError.schemaTooNew(path: database.path, version: supported + 1, supported: supported)) {
            try await database.open()
        }
        #expect(
            error?.description
                == "enrollment database \(database.path) has schema version \(supported + 1), but this OTPKit knows versions up to \(supported): upgrade OTPKit"
        )
    }

    @Test("a shipped migration that changed is detected")
    func changedMigration() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("UPDATE otpkit_migrations SET checksum = 'edited' WHERE version = 1")
        }
        await #expect(throws: SQLiteAuthStoreError.migrationChanged(path: database.path, version: 1)) { try await database.open() }
    }

    @Test("a read-only directory: a new database cannot be created there")
    func readOnlyDirectoryNewFile() async throws {
        let database = try TestDatabase()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: database.directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: database.directory) }
        let result = try await runAsUnprivileged(["open", database.path], database: database)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(readOnlyMessage(database.path, reason: "directory \(database.directory) is not writable"))\n")
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
        let result = try await runAsUnprivileged(["open", database.path], database: database)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "\(readOnlyMessage(database.path, reason: "attempt to write a readonly database"))\n")
    }

    @Test("a wrong key through the helper process: a clear message, exit status 1, no key printed")
    func wrongKeyProcess() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        try await enroll(store)
        try await store.close()
        let wrongHex = String(repeating: "5a", count: 32)
        let wrongID = try SealingKey(bytes: Array(repeating: 0x5a, count: 32)).id
        let result = try await TestHelper.run(["open", database.path], on: database, keyHex: wrongHex)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr == """
                enrollment database \(database.path) holds secrets sealed under key \(database.key.id), but the key given is \(wrongID): \
                pass the key they were sealed with (as the current key, or as a previous key to re-seal)

                """)
        #expect(!result.stderr.contains(wrongHex) && !result.stderr.contains(database.keyHex))
        let missing = try await TestHelper.run(["open", database.path], on: database, keyHex: "")
        #expect(missing.status == 1)
        #expect(
            missing.stderr == """
                no sealing key: pass a key file or set \(SealingKey.defaultEnvironmentVariable) to 64 hexadecimal characters \
                (create one with `openssl rand -hex 32`)

                """)
    }

    /// Root ignores file permissions, so as root the helper runs as `nobody` (setpriv, util-linux),
    /// from a copy in a world-readable directory (the checkout may sit under a private home).
    func runAsUnprivileged(_ arguments: [String], database: TestDatabase) async throws -> ProcessOutput {
        guard getuid() == 0 else {
            return try await TestHelper.run(arguments, on: database)
        }
        let directory = try TemporaryDirectory(prefix: "otpkit-helper")
        defer { directory.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let copy = directory.file("helper")
        try FileManager.default.copyItem(atPath: try TestHelper.path(), toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        let prefix = [try ExternalTool.setpriv.path(), "--reuid=65534", "--regid=65534", "--clear-groups"]
        return try await TestHelper.run(arguments, on: database, prefix: prefix, executable: copy)
    }

    func readOnlyMessage(_ path: String, reason: String) -> String {
        "enrollment database \(path) is read-only (\(reason)): the file and its directory must be writable, since SQLite keeps \(path)-wal and \(path)-shm beside it"
    }
}
