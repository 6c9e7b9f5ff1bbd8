package import OTPAuthentication
package import OTPAuthenticationPostgres
package import OTPAuthenticationSQLite
package import OTPSealing

/// A store `--db` opens: an ``AuthStore`` with what the commands and the server need beyond
/// it (its keys, re-sealing, a name for messages, closing), whichever backend holds it.
///
/// A backend conforms its store here and registers a ``StoreBackend``; nothing else switches on
/// which database it is. Its methods throw the backend's own errors, which say what kind of
/// failure they are through `ClassifiedStoreError`.
package protocol DurableAuthStore: AuthStore {
    /// The keys the store was opened with.
    var sealer: SecretSealer { get }
    /// How messages name the database: the file's path, or `user@host:port/database` (never the
    /// password, which a URL may hold).
    var databaseName: String { get }
    /// Closes the store.
    func close() async throws
    /// Seals every secret under the current key, `batchSize` rows per transaction; returns how
    /// many were sealed under another.
    func resealAll(batchSize: Int) async throws -> Int
    /// How many secrets each key seals.
    func sealingKeyUsage() async throws -> [SealingKeyID: Int]
}

extension DurableAuthStore {
    /// Closes the store, leaving a failure to close unreported: everything done through it is
    /// already committed or already reported.
    package func closeQuietly() async {
        try? await close()
    }
}

extension SQLiteAuthStore: DurableAuthStore {
    package var databaseName: String { path }
}

extension PostgresAuthStore: DurableAuthStore {
    package var databaseName: String { server }
}
