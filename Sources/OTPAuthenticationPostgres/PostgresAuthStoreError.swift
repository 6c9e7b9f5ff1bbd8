public import OTPDurableStore
public import OTPSealing

/// An error from ``PostgresAuthStore``: its configuration, reaching the server, the schema,
/// the sealed secrets, or PostgreSQL itself.
///
/// Every case names the server as `user@host:port/database` (or the socket path) and says what to
/// do. None carries a password, an SQL statement, a secret, a key, or sealed bytes.
public enum PostgresAuthStoreError: Error, Hashable, Sendable {
    /// The connection URL cannot be used; `reason` names the part that is wrong.
    case invalidURL(reason: String)
    /// A libpq environment variable holds a value that cannot be used.
    case invalidEnvironment(variable: String, reason: String)
    /// No connection to the server could be made (refused, timed out, no such socket…).
    case unreachable(server: String, reason: String)
    /// The server refused the user name or password.
    case authenticationFailed(server: String, reason: String)
    /// The server has no database of that name.
    case databaseNotFound(server: String, database: String)
    /// TLS was asked for and could not be set up (the server offers none, or its certificate was refused).
    case tlsFailed(server: String, reason: String)
    /// Every pooled connection stayed busy for longer than the wait allowed.
    case poolExhausted(server: String, waitedMilliseconds: Int)
    /// The connection broke (the server restarted or the network failed) and `operation` could
    /// not be retried or kept failing; whether a write took effect is unknown.
    case connectionLost(server: String, operation: String, reason: String)
    /// The database holds a schema from a newer OTPKit.
    case schemaTooNew(server: String, version: Int, supported: Int)
    /// A migration recorded in the database differs from the one this OTPKit ships.
    case migrationChanged(server: String, version: Int)
    /// Rows are sealed under keys that were not given; the store refuses to start without them.
    case missingSealingKeys(server: String, keyIDs: [SealingKeyID], currentKeyID: SealingKeyID)
    /// A sealed secret failed to open (altered, copied from another record, or its key is wrong).
    case unusableSecret(recordID: String, SealingError)
    /// A stored row holds a value no OTPKit writes.
    case invalidRecord(recordID: String, detail: String)
    /// PostgreSQL refused `operation` with the SQLSTATE `sqlState`.
    case database(server: String, operation: String, sqlState: String, message: String)
    /// The store was used after ``PostgresAuthStore/close()``.
    case closed(server: String)
    /// A time step is beyond what the database stores (above `Int64.max`); no real clock reaches it.
    case stepOutOfRange(UInt64)
}

extension PostgresAuthStoreError: CustomStringConvertible {
    /// A one-line message saying what was wrong and how to fix it.
    public var description: String {
        switch self {
        case .invalidURL(let reason):
            "invalid PostgreSQL URL: \(reason) (expected postgres://user:password@host:port/database?sslmode=require)"
        case .invalidEnvironment(let variable, let reason):
            "invalid \(variable): \(reason)"
        case .unreachable(let server, let reason):
            "cannot reach PostgreSQL at \(server) (\(reason)): check that the server runs and the host, port or socket directory is right"
        case .authenticationFailed(let server, let reason):
            "PostgreSQL at \(server) refused the login (\(reason)): check the user name and password (PGUSER, PGPASSWORD or the URL)"
        case .databaseNotFound(let server, let database):
            "PostgreSQL at \(server) has no database \(database): create it (createdb \(database)) or name an existing one"
        case .tlsFailed(let server, let reason):
            "TLS to PostgreSQL at \(server) failed (\(reason)): enable ssl on the server, give its CA with sslrootcert, or lower sslmode"
        case .poolExhausted(let server, let waited):
            "no connection to PostgreSQL at \(server) became free within \(waited) ms: raise the pool size or the wait, or find what holds the connections"
        case .connectionLost(let server, let operation, let reason):
            "the connection to PostgreSQL at \(server) failed during \(operation) (\(reason)); whether it took effect is unknown: retry once the server is back"
        case .schemaTooNew(let server, let version, let supported):
            "enrollment database \(server) has schema version \(version), but this OTPKit knows versions up to \(supported): upgrade OTPKit"
        case .migrationChanged(let server, let version):
            "enrollment database \(server) was migrated with a different migration \(version) than this OTPKit ships: shipped migrations must never change"
        case .missingSealingKeys(let server, let keyIDs, let current):
            "enrollment database \(server) holds secrets sealed under key \(keyIDs.map(\.description).joined(separator: ", ")), "
                + "but the key given is \(current): pass the key they were sealed with (as the current key, or as a previous key to re-seal)"
        case .unusableSecret(let recordID, let error):
            "the sealed secret of \(recordID) cannot be opened: \(error)"
        case .invalidRecord(let recordID, let detail):
            "stored record \(recordID) is invalid: \(detail)"
        case .database(let server, let operation, let sqlState, let message):
            "PostgreSQL at \(server) refused \(operation) (SQLSTATE \(sqlState)): \(message)"
        case .closed(let server):
            "the enrollment store on \(server) was used after it was closed"
        case .stepOutOfRange(let step):
            "time step \(step) is out of range"
        }
    }
}

extension PostgresAuthStoreError: ClassifiedStoreError {
    public var kind: StoreFailureKind {
        switch self {
        case .invalidURL, .invalidEnvironment, .missingSealingKeys: .configuration
        case .unreachable, .poolExhausted, .connectionLost: .unavailable
        case .authenticationFailed, .databaseNotFound, .tlsFailed: .access
        case .schemaTooNew, .migrationChanged: .incompatible
        case .unusableSecret, .invalidRecord: .damagedRecord
        case .database, .stepOutOfRange: .refused
        case .closed: .closed
        }
    }
}
