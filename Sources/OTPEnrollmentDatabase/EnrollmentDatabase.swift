internal import Logging
internal import OTPCommandSupport
internal import OTPEnrollment
internal import OTPEnrollmentPostgres
internal import OTPEnrollmentSQLite
internal import OTPSealing

/// The store `--db` opened: what the commands need beyond `EnrollmentStore` (re-sealing, closing,
/// naming the database) in one shape for both durable stores, each store's failures reported as
/// the command's.
enum EnrollmentDatabase {
    case sqlite(SQLiteEnrollmentStore)
    case postgres(PostgresEnrollmentStore)

    /// One command runs one store operation at a time; the second connection only spares a wait
    /// when the pool replaces one the server closed.
    static let postgresPoolSize = 2

    /// Opens the store at `location`, which checks the schema and that `sealer` opens every row.
    ///
    /// A PostgreSQL URL takes what it leaves out from libpq's variables (`PGHOST`, `PGPORT`,
    /// `PGUSER`, `PGPASSWORD`, …), as libpq does, so the password need not be on the command line.
    static func open(_ location: DatabaseLocation, sealer: SecretSealer, logger: Logger) async throws(CommandFailure) -> EnrollmentDatabase {
        switch location {
        case .sqlite(let path):
            do {
                return .sqlite(try await SQLiteEnrollmentStore.open(path: path, sealer: sealer))
            } catch {
                throw CommandFailure(error)
            }
        case .postgres(let url):
            do {
                return .postgres(
                    try await PostgresEnrollmentStore.open(
                        url: url, environment: PostgresEnrollmentStore.processEnvironment, sealer: sealer, poolSize: postgresPoolSize,
                        logger: logger))
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    /// The store, for the service and for reads through the store protocol.
    var store: any EnrollmentStore {
        switch self {
        case .sqlite(let store): store
        case .postgres(let store): store
        }
    }

    /// The keys the store was opened with.
    var sealer: SecretSealer {
        switch self {
        case .sqlite(let store): store.sealer
        case .postgres(let store): store.sealer
        }
    }

    /// How messages name the database: the file's path, or `user@host:port/database` (never the
    /// password, which a URL may hold).
    var name: String {
        switch self {
        case .sqlite(let store): store.path
        case .postgres(let store): store.server
        }
    }

    /// Closes the store. A failure to close is not reported: everything the command did is
    /// already committed or already reported.
    func close() async {
        switch self {
        case .sqlite(let store): try? await store.close()
        case .postgres(let store): await store.close()
        }
    }

    /// Runs `body`'s reads, reporting a store failure as the command's failure.
    func reading<Result>(_ body: (any EnrollmentStore) async throws -> Result) async throws(CommandFailure) -> Result {
        do {
            return try await body(store)
        } catch {
            throw CommandFailure(storeFailure: error) ?? .ioError("\(error)")
        }
    }

    /// Seals every secret under the current key; returns how many were sealed under another.
    func resealAll() async throws(CommandFailure) -> Int {
        switch self {
        case .sqlite(let store):
            do { return try await store.resealAll() } catch { throw CommandFailure(error) }
        case .postgres(let store):
            do { return try await store.resealAll() } catch { throw CommandFailure(error) }
        }
    }

    /// How many secrets each key seals.
    func sealingKeyUsage() async throws(CommandFailure) -> [SealingKeyID: Int] {
        switch self {
        case .sqlite(let store):
            do { return try await store.sealingKeyUsage() } catch { throw CommandFailure(error) }
        case .postgres(let store):
            do { return try await store.sealingKeyUsage() } catch { throw CommandFailure(error) }
        }
    }
}
