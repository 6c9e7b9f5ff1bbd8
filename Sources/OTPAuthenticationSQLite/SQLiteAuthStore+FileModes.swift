internal import Glibc

extension SQLiteAuthStore {
    /// The suffixes of the files SQLite keeps beside a database in WAL mode.
    static let companionSuffixes = ["", "-wal", "-shm"]

    /// Creates the database file at `path`, empty and readable by its owner only, when there is
    /// none. SQLite would create it with 0644 under the usual umask, and it creates the `-wal`
    /// and `-shm` files with the database file's mode: so all three stay private, although they
    /// hold password hashes, addresses, numbers and session ids. An empty file is an empty
    /// database to SQLite. Failures are left to SQLite's open, which reports them with their cause.
    static func createPrivately(_ path: String) {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// The database's files (`path`, its `-wal` and `-shm`) that exist and that group or others
    /// may read: a store made by an earlier version, or copied with a careless mode. A server
    /// warns about them at start; `chmod 600` on each fixes it.
    public static func filesReadableByOthers(path: String) -> [String] {
        companionSuffixes.map { path + $0 }.filter { file in
            var status = stat()
            return stat(file, &status) == 0 && status.st_mode & 0o044 != 0
        }
    }
}
