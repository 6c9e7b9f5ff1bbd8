public import Logging
public import OTPAuthentication
public import OTPSealing
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import OTPCore
internal import NIOPosix
internal import NIOSSL
internal import OTPDurableStore
internal import PostgresNIO

/// An `AuthStore` in a PostgreSQL database, for several servers that share one store.
///
/// Built on vapor/postgres-nio: its connection pool (`PostgresClient`) and bound statements, no ORM.
///
/// - Races are decided by the database, correctly under `READ COMMITTED` with any number of
///   processes: the accepted time step is one conditional `UPDATE … WHERE last_accepted_step < $n`,
///   failure counters and quotas one atomic upsert each, email addresses and identities unique
///   indexes, and every operation of several statements one transaction that locks what it reads
///   (`SELECT … FOR UPDATE`, or a transaction-scoped advisory lock per user for the factor limit).
/// - Concurrent sign-ins are decided in sets: one transaction, each statement over all of them.
/// - Transient failures (a dropped connection, a restarting server, a deadlock) are retried a few
///   times where a retry cannot apply a write twice, and otherwise reported as
///   ``PostgresAuthStoreError/connectionLost(server:operation:reason:)``.
/// - Secrets are sealed with AES-256-GCM by a `SecretSealer` under the operator's key, bound to
///   their record's id, exactly as the SQLite store seals them. Opening checks that every sealed row
///   has its key, so a wrong or missing key fails at start-up, not at the first sign-in.
/// - The schema is versioned by append-only, checksummed migrations, applied under an advisory
///   lock so that servers starting at once migrate the database once.
///
/// Call ``close()`` when done.
public final class PostgresAuthStore: AuthStore {
    /// Settings beyond the server's address.
    public struct Options: Sendable {
        /// How long an operation waits for a pooled connection (all busy, or none can be made)
        /// before it fails with ``PostgresAuthStoreError/poolExhausted(server:waitedMilliseconds:)``.
        public var connectionWait: Duration
        /// How long making one connection may take.
        public var connectTimeout: Duration
        /// How many times an operation that hit a transient failure is tried again, where trying
        /// again cannot apply it twice.
        public var transientRetries: Int
        /// The most concurrent sign-ins (first steps, or completions) decided together in one
        /// transaction, a few statements for all of them. 1 decides each alone.
        public var maximumSignInsPerBatch: Int

        /// Creates options; the defaults wait 10 seconds for a connection, retry 3 times and
        /// decide up to 256 sign-ins together.
        public init(
            connectionWait: Duration = .seconds(10), connectTimeout: Duration = .seconds(10), transientRetries: Int = 3,
            maximumSignInsPerBatch: Int = 256
        ) {
            self.connectionWait = connectionWait
            self.connectTimeout = connectTimeout
            self.transientRetries = transientRetries
            self.maximumSignInsPerBatch = max(1, maximumSignInsPerBatch)
        }
    }

    /// The sealer that seals new secrets and opens stored ones.
    public let sealer: SecretSealer
    /// The server and database as `user@host:port/database` (or the socket path): never the password.
    public let server: String
    let options: Options
    let logger: Logger
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private let state = NIOLockedValueBox(State())
    /// Concurrent first steps of sign-ins, decided together.
    let signInStarts: OperationBatcher<String, SignInFactors, PostgresAuthStoreError>
    /// Concurrent second steps of sign-ins, read together.
    let signInContexts: OperationBatcher<PendingSignInRecord, PendingSignInContext?, PostgresAuthStoreError>
    /// Concurrent sign-in completions, decided together.
    let signInCompletions: OperationBatcher<SignInCompletionBatch.Request, SignInCompletion, PostgresAuthStoreError>
    /// Concurrent wrong codes of sign-ins, counted together.
    let signInFailures: OperationBatcher<SignInFailureBatch.Request, SignInFailure, PostgresAuthStoreError>

    private struct State {
        var closed = false
        /// Set once by ``open(settings:sealer:poolSize:options:logger:)``, before the store is handed out.
        var codeDigestSealer: SecretSealer?
    }

    private init(settings: ConnectionSettings, sealer: SecretSealer, poolSize: Int, options: Options, logger: Logger) throws {
        self.sealer = sealer
        self.server = settings.description
        self.options = options
        self.logger = logger
        signInStarts = OperationBatcher(maximumBatch: options.maximumSignInsPerBatch)
        signInContexts = OperationBatcher(maximumBatch: options.maximumSignInsPerBatch)
        signInCompletions = OperationBatcher(maximumBatch: options.maximumSignInsPerBatch)
        signInFailures = OperationBatcher(maximumBatch: options.maximumSignInsPerBatch)
        var configuration = try settings.clientConfiguration()
        configuration.options.maximumConnections = max(1, poolSize)
        configuration.options.connectTimeout = options.connectTimeout
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        // The pool does its work (connecting, keep-alive, idle timeouts) in this task; close() ends it.
        self.runner = Task { await client.run() }
    }

    /// Connects to the database a `postgres://` or `postgresql://` URL names, brings its schema up
    /// to date and checks that `sealer` holds every key its rows are sealed under.
    ///
    /// The URL is libpq's: `postgres://user:password@host:port/database?sslmode=require`, user name,
    /// password and database percent-encoded; a host that is a directory (`%2Fvar%2Frun%2Fpostgresql`,
    /// or `?host=/var/run/postgresql`) is a Unix socket. `sslmode` is `disable`, `allow`, `prefer`
    /// (the default: TLS when the server offers it), `require`, `verify-ca` or `verify-full`;
    /// `sslrootcert` names the CA file that verifies the server; `options` passes server settings
    /// such as `-c search_path=otpkit` (percent-encoded) to keep the tables in a schema of their own.
    /// A `/`, `?`, `#` or `@` inside a part must be percent-encoded.
    ///
    /// With `environment`, libpq's variables (as ``open(environment:sealer:poolSize:options:logger:)``
    /// reads them) give what the URL leaves out, as libpq does: `postgres://db.internal/otpkit` with
    /// `PGUSER` and `PGPASSWORD` keeps the password out of the URL and the process list.
    ///
    /// - Parameters:
    ///   - url: Where the database is.
    ///   - environment: libpq's variables for the parts the URL leaves out; none by default, so
    ///     that libpq's defaults apply.
    ///   - sealer: The sealer for the secrets.
    ///   - poolSize: The most connections the store keeps open.
    ///   - options: Waits and retries.
    ///   - logger: Where the connection pool logs.
    /// - Throws: ``PostgresAuthStoreError`` saying what is wrong: the URL or a variable, reaching
    ///   the server, the login, the database, TLS, a schema from a newer OTPKit, or
    ///   ``PostgresAuthStoreError/missingSealingKeys(server:keyIDs:currentKeyID:)`` for a wrong key.
    public static func open(
        url: String,
        environment: [String: String] = [:],
        sealer: SecretSealer,
        poolSize: Int = 10,
        options: Options = Options(),
        logger: Logger = Logger(label: "OTPAuthenticationPostgres")
    ) async throws(PostgresAuthStoreError) -> PostgresAuthStore {
        try await open(
            settings: ConnectionSettings(url: url, environment: environment), sealer: sealer, poolSize: poolSize, options: options, logger: logger)
    }

    /// Connects to the database libpq's environment variables name (`PGHOST`, a host name or the
    /// directory of a Unix socket; `PGPORT`; `PGUSER`; `PGPASSWORD`; `PGDATABASE`; `PGSSLMODE`;
    /// `PGSSLROOTCERT`; `PGOPTIONS`, such as `-c search_path=otpkit` for a schema of its own), with libpq's defaults for what is unset, then opens it as
    /// ``open(url:environment:sealer:poolSize:options:logger:)`` does.
    ///
    /// - Parameters:
    ///   - environment: The variables; the process's environment by default.
    ///   - sealer: The sealer for the secrets.
    ///   - poolSize: The most connections the store keeps open.
    ///   - options: Waits and retries.
    ///   - logger: Where the connection pool logs.
    /// - Throws: ``PostgresAuthStoreError``, as ``open(url:environment:sealer:poolSize:options:logger:)``
    ///   does, or ``PostgresAuthStoreError/invalidEnvironment(variable:reason:)``.
    public static func open(
        environment: [String: String] = PostgresAuthStore.processEnvironment,
        sealer: SecretSealer,
        poolSize: Int = 10,
        options: Options = Options(),
        logger: Logger = Logger(label: "OTPAuthenticationPostgres")
    ) async throws(PostgresAuthStoreError) -> PostgresAuthStore {
        try await open(
            settings: ConnectionSettings(environment: environment), sealer: sealer, poolSize: poolSize, options: options, logger: logger)
    }

    private static func open(
        settings: ConnectionSettings, sealer: SecretSealer, poolSize: Int, options: Options, logger: Logger
    ) async throws(PostgresAuthStoreError) -> PostgresAuthStore {
        // One plain connection first: the pool retries failed connections quietly until a waiting
        // operation gives up, so only a connection of our own can say why the server is out of reach.
        try await settings.checkConnection(timeout: options.connectTimeout, logger: logger)
        let store: PostgresAuthStore
        do {
            store = try PostgresAuthStore(settings: settings, sealer: sealer, poolSize: poolSize, options: options, logger: logger)
        } catch {
            throw .tlsFailed(server: settings.description, reason: "\(error)")
        }
        do {
            try await store.migrate()
            try await store.sealedTables.checkSealingKeys(with: sealer)
            let digestKeys = try await store.loadCodeDigestKey()
            store.state.withLockedValue { $0.codeDigestSealer = digestKeys }
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// The store's own code digest key (see ``PostgresAuthStore/codeDigestKeys``).
    var codeDigestSealer: SecretSealer? { state.withLockedValue { $0.codeDigestSealer } }

    /// Closes every pooled connection. Later calls fail with
    /// ``PostgresAuthStoreError/closed(server:)``; closing again does nothing.
    public func close() async {
        let wasClosed = state.withLockedValue { state in
            defer { state.closed = true }
            return state.closed
        }
        guard !wasClosed else { return }
        runner.cancel()
        await runner.value
    }

    /// A store dropped without ``close()`` still ends its pool, instead of leaking its connections.
    deinit {
        if !state.withLockedValue({ $0.closed }) {
            runner.cancel()
        }
    }

    // MARK: Running statements

    /// Whether an operation may run again after a transient failure.
    enum Retry {
        /// Reads, and writes that leave the same state however often they run.
        case always
        /// Writes that must not apply twice: again only when the failure left nothing applied.
        case ifNotApplied
    }

    /// Runs `body`, which only reads, on one pooled connection outside a transaction, again after
    /// a transient failure.
    func reading<Result: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (Connection) async throws -> Result
    ) async throws(PostgresAuthStoreError) -> Result {
        try await attempting(operation, retry: .always) { connection in try await body(connection) }
    }

    /// Runs `body` in a transaction (`READ COMMITTED`, PostgreSQL's default) on one pooled
    /// connection: it commits when `body` returns, and rolls back when it throws, so nothing
    /// half-happens. What `body` reads to decide on a write it locks (`FOR UPDATE`), or it decides
    /// in one conditional statement.
    ///
    /// Every write goes through here, one statement or several. Outside a transaction block the
    /// server commits a statement of the extended protocol only at the `Sync` after it, while
    /// postgres-nio answers the query at its `CommandComplete`, before that commit: a write
    /// reported done could still be lost in a crash, or fail to commit unheard. `COMMIT` itself
    /// is answered only once the commit is durable.
    ///
    /// The caller's pending audit events (`AuditTrail`) go with the connection, for `body` to
    /// write where it makes its change (``Connection/recordAudit()``).
    func transaction<Result: Sendable>(
        _ operation: String, retry: Retry = .ifNotApplied, _ body: @escaping @Sendable (Connection) async throws -> Result
    ) async throws(PostgresAuthStoreError) -> Result {
        let audit = AuditTrail.pending
        // An event written twice is a change recorded twice: a write with events is never retried
        // once it may have committed.
        return try await attempting(operation, retry: audit.isEmpty ? retry : .ifNotApplied, audit: audit) { connection in
            let result: Result
            do {
                try await connection.execute("BEGIN")
                result = try await body(connection)
            } catch let abandoned as Abandoned<Result> {
                try await connection.execute("ROLLBACK")
                return abandoned.result
            } catch {
                do {
                    try await connection.execute("ROLLBACK")
                } catch {
                    // A connection whose transaction state is unknown must not go back to the pool.
                    try? await connection.base.close()
                }
                throw NotApplied(error: error)
            }
            try await connection.execute("COMMIT")
            return result
        }
    }

    private func attempting<Result: Sendable>(
        _ operation: String, retry: Retry, audit: [AuditEvent] = [], _ body: @escaping @Sendable (Connection) async throws -> Result
    ) async throws(PostgresAuthStoreError) -> Result {
        var attempt = 0
        while true {
            guard !state.withLockedValue({ $0.closed }) else { throw .closed(server: server) }
            do {
                return try await leased { connection in try await body(Connection(base: connection, store: self, audit: audit)) }
            } catch {
                let failure = classify(error, operation: operation)
                attempt += 1
                guard failure.isTransient, attempt <= options.transientRetries, retry == .always || failure.leftNothingApplied else {
                    throw failure.error
                }
                logger.debug("retrying after a transient failure", metadata: ["operation": "\(operation)", "attempt": "\(attempt)"])
                try? await Task.sleep(for: .milliseconds(25 << min(attempt, 6)))
            }
        }
    }

    /// Leases a connection for `body`, waiting at most ``Options/connectionWait`` for one. The
    /// lock decides between the lease and the deadline, so that a connection granted as the wait
    /// ends is not used by an operation already reported as failed.
    private func leased<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let lease = NIOLockedValueBox(Lease.waiting)
        let client = self.client
        let wait = options.connectionWait
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    let granted = lease.withLockedValue { lease in
                        guard lease == .waiting else { return false }
                        lease = .granted
                        return true
                    }
                    guard granted else { throw LeaseExpired() }
                    return try await body(connection)
                }
            }
            group.addTask {
                try? await Task.sleep(for: wait)
                let expired = lease.withLockedValue { lease in
                    guard lease == .waiting else { return false }
                    lease = .expired
                    return true
                }
                if expired { throw LeaseExpired() }
                return nil
            }
            while let finished = try await group.next() {
                if let result = finished {
                    group.cancelAll()
                    return result
                }
            }
            throw LeaseExpired()
        }
    }

    /// Where a lease stands: the connection or the deadline comes first.
    private enum Lease { case waiting, granted, expired }

    /// A pooled connection inside an operation.
    struct Connection: Sendable {
        let base: PostgresConnection
        let store: PostgresAuthStore
        /// The audit events of the operation this connection runs, written by ``recordAudit()``.
        var audit: [AuditEvent] = []

        /// Runs one statement (its values bound, never spliced into the SQL) and returns its rows.
        @discardableResult
        func query(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
            try await sent(query).get().rows.map { $0.makeRandomAccess() }
        }

        /// Runs one statement whose rows do not matter.
        func execute(_ query: PostgresQuery) async throws {
            _ = try await sent(query).get()
        }

        /// `query`'s answer, or the failure that ends it. postgres-nio writes a statement to its
        /// channel and waits for the answer, but a write to a channel that has closed fails where
        /// nothing hears it, and the wait never ends; the pool can hand out a connection the
        /// server closed a moment ago, before it hears of the close. So the statement is written
        /// on the channel's event loop, where the channel closes, right after checking that it is
        /// open: a closed connection fails the attempt with nothing sent, and an open one holds
        /// the statement until it answers or fails it as it closes.
        private func sent(_ query: PostgresQuery) -> EventLoopFuture<PostgresQueryResult> {
            let base = self.base
            let logger = store.logger
            return base.eventLoop.flatSubmit {
                guard !base.isClosed else { return base.eventLoop.makeFailedFuture(ClosedBeforeSending()) }
                return base.query(query, logger: logger)
            }
        }
    }

    // MARK: Errors

    /// The failure of an operation's attempt, and whether it may be tried again.
    struct Failure {
        var error: PostgresAuthStoreError
        /// A failure that may pass: a broken connection, a restarting server, a deadlock.
        var isTransient = false
        /// The server reported the failure or the transaction never committed, so nothing was applied.
        var leftNothingApplied = false
    }

    /// The body of a transaction threw before `COMMIT`: whatever it wrote was rolled back.
    struct NotApplied: Error {
        let error: any Error
    }

    /// Thrown by a transaction's body to roll back everything it wrote and answer `result`: a
    /// refusal found after a write (a unique index that refused a row).
    struct Abandoned<Result: Sendable>: Error {
        let result: Result
    }

    /// No pooled connection became free within ``Options/connectionWait``.
    struct LeaseExpired: Error {}

    /// The leased connection had closed before a statement went out on it.
    struct ClosedBeforeSending: Error {}

    func classify(_ error: any Error, operation: String) -> Failure {
        switch error {
        case let error as NotApplied:
            var failure = classify(error.error, operation: operation)
            failure.leftNothingApplied = true
            return failure
        case let error as PostgresAuthStoreError:
            return Failure(error: error)
        case is ClosedBeforeSending:
            return Failure(
                error: .connectionLost(server: server, operation: operation, reason: "the connection had closed"), isTransient: true,
                leftNothingApplied: true)
        case is LeaseExpired:
            return Failure(error: .poolExhausted(server: server, waitedMilliseconds: Int(options.connectionWait.milliseconds)))
        case let error as PSQLError:
            return classify(error, operation: operation)
        case is CancellationError:
            return Failure(error: .connectionLost(server: server, operation: operation, reason: "the task was cancelled"))
        default:
            return Failure(error: .connectionLost(server: server, operation: operation, reason: Self.reason(error)), isTransient: true)
        }
    }

    private func classify(_ error: PSQLError, operation: String) -> Failure {
        switch error.code {
        case .server:
            let sqlState = error.serverInfo?[.sqlState] ?? "?????"
            let message = Self.serverMessage(error)
            // 40001 and 40P01 (serialization failure, deadlock): the server rolled the transaction back.
            if ["40001", "40P01"].contains(sqlState) {
                return Failure(
                    error: .connectionLost(server: server, operation: operation, reason: "SQLSTATE \(sqlState): \(message)"), isTransient: true,
                    leftNothingApplied: true)
            }
            // Class 08 (connection exceptions), 57P01–57P03 (the server shutting down or starting):
            // the session ended, maybe after a COMMIT took effect and before its answer went out,
            // so only a failure before COMMIT (``NotApplied``) says that nothing was applied.
            if sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState) {
                return Failure(
                    error: .connectionLost(server: server, operation: operation, reason: "SQLSTATE \(sqlState): \(message)"), isTransient: true)
            }
            return Failure(error: .database(server: server, operation: operation, sqlState: sqlState, message: message))
        case .poolClosed:
            return Failure(error: .closed(server: server))
        case .queryCancelled:
            return Failure(error: .connectionLost(server: server, operation: operation, reason: "the query was cancelled"))
        default:
            return Failure(error: .connectionLost(server: server, operation: operation, reason: Self.reason(error)), isTransient: true)
        }
    }

    /// The server's message, except for data and integrity errors, whose messages may quote
    /// values: the constraint's name says enough there.
    static func serverMessage(_ error: PSQLError) -> String {
        let sqlState = error.serverInfo?[.sqlState] ?? ""
        if sqlState.hasPrefix("22") || sqlState.hasPrefix("23") {
            return error.serverInfo?[.constraintName].map { "constraint \($0)" } ?? "invalid data"
        }
        return error.serverInfo?[.message] ?? "no message"
    }

    /// A driver error in words: postgres-nio's own description hides the details (on purpose:
    /// it may hold the query), so the code and the underlying network error are named instead.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let underlying = error.underlying {
            return "\(error.code): \(underlying)"
        }
        return "\(error.code)"
    }
}

extension Error {
    /// The SQLSTATE of an error the server reported, such as `23505` for a unique violation.
    var sqlState: String? {
        guard let error = self as? PSQLError, error.code == .server else { return nil }
        return error.serverInfo?[.sqlState]
    }
}
