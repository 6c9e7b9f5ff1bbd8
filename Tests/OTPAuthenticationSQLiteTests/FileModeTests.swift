import Glibc
import OTPAuthenticationSQLite
import Testing

/// The database holds password hashes, addresses, numbers and session ids: its files must not be
/// readable by the machine's other users.
@Suite("SQLite file modes")
struct FileModeTests {
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
    }

    @Test("under umask 022 a new database, its -wal and its -shm are 0600, and the directory keeps its mode")
    func newFilesArePrivate() async throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let database = try TestDatabase()
        chmod(database.directory, 0o755)
        let store = try await database.open()
        _ = try await enroll(store, userID: "alice", algorithm: .sha1)
        for suffix in ["", "-wal", "-shm"] {
            #expect(Self.mode(database.path + suffix) == 0o600, "\(suffix)")
        }
        #expect(SQLiteAuthStore.filesReadableByOthers(path: database.path).isEmpty)
        #expect(Self.mode(database.directory) == 0o755)
        try await store.close()
    }

    @Test("a database other users can read is named with its companions, and still opens")
    func readableDatabaseIsNamed() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        chmod(database.path, 0o644)
        let store = try await database.open()
        _ = try await enroll(store, userID: "bob", algorithm: .sha1)
        #expect(SQLiteAuthStore.filesReadableByOthers(path: database.path) == ["", "-wal", "-shm"].map { database.path + $0 })
        try await store.close()
        chmod(database.path, 0o600)
        #expect(SQLiteAuthStore.filesReadableByOthers(path: database.path).allSatisfy { !$0.hasSuffix(".sqlite") })
    }
}
