package import Logging
package import OTPEnrollment
package import OTPEnrollmentPostgres
package import OTPEnrollmentSQLite
package import OTPSealing

/// The store `--db` opened: what `totp-enrollment` and `otpkit-server` need beyond
/// `EnrollmentStore` (re-sealing, closing, the name messages use) in one shape for both durable
/// stores, each store's failure kept typed in ``EnrollmentDatabaseError``.
package enum EnrollmentDatabase: Sendable {
    case sqlite(SQLiteEnrollmentStore)
    case postgres(PostgresEnrollmentStore)

    /// Opens the store at `location`, which checks the schema and that `sealer` opens every row,
    /// and warns through `logger` about an SQLite file that other users may read.
    ///
    /// A PostgreSQL URL takes what it leaves out from libpq's variables (`PGHOST`, `PGPORT`,
    /// `PGUSER`, `PGPASSWORD`, …), as libpq does, so the password need not be on the command line.
    package static func open(
        _ location: DatabaseLocation, sealer: SecretSealer, postgresPoolSize: Int, logger: Logger
    ) async throws(EnrollmentDatabaseError) -> EnrollmentDatabase {
        switch location {
        case .sqlite(let path):
            let store: SQLiteEnrollmentStore
            do {
                store = try await SQLiteEnrollmentStore.open(path: path, sealer: sealer)
            } catch {
                throw .sqlite(error)
            }
            for file in SQLiteEnrollmentStore.filesReadableByOthers(path: path) {
                logger.warning(
                    "the database file \(file) is readable by other users, and it holds password hashes, email addresses, phone numbers and session ids: run chmod 600 on it"
                )
            }
            return .sqlite(store)
        case .postgres(let url):
            do {
                return .postgres(
                    try await PostgresEnrollmentStore.open(
                        url: url, environment: PostgresEnrollmentStore.processEnvironment, sealer: sealer, poolSize: postgresPoolSize,
                        logger: logger))
            } catch {
                throw .postgres(error)
            }
        }
    }

    /// The store, for the service and for reads through the store protocol.
    package var store: any EnrollmentStore {
        switch self {
        case .sqlite(let store): store
        case .postgres(let store): store
        }
    }

    /// The keys the store was opened with.
    package var sealer: SecretSealer {
        switch self {
        case .sqlite(let store): store.sealer
        case .postgres(let store): store.sealer
        }
    }

    /// How messages name the database: the file's path, or `user@host:port/database` (never the
    /// password, which a URL may hold).
    package var name: String {
        switch self {
        case .sqlite(let store): store.path
        case .postgres(let store): store.server
        }
    }

    /// Closes the store. A failure to close is not reported: everything done through it is
    /// already committed or already reported.
    package func close() async {
        switch self {
        case .sqlite(let store): try? await store.close()
        case .postgres(let store): await store.close()
        }
    }

    /// Seals every secret under the current key; returns how many were sealed under another.
    package func resealAll() async throws(EnrollmentDatabaseError) -> Int {
        switch self {
        case .sqlite(let store):
            do { return try await store.resealAll() } catch { throw .sqlite(error) }
        case .postgres(let store):
            do { return try await store.resealAll() } catch { throw .postgres(error) }
        }
    }

    /// How many secrets each key seals.
    package func sealingKeyUsage() async throws(EnrollmentDatabaseError) -> [SealingKeyID: Int] {
        switch self {
        case .sqlite(let store):
            do { return try await store.sealingKeyUsage() } catch { throw .sqlite(error) }
        case .postgres(let store):
            do { return try await store.sealingKeyUsage() } catch { throw .postgres(error) }
        }
    }
}
