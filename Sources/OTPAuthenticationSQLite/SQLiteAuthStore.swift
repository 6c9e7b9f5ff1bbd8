public import OTPAuthentication
public import OTPSealing
internal import OTPDurableStore
internal import SQLiteNIO
internal import Synchronization

internal import Glibc

/// An `AuthStore` in an SQLite database file: the embedded, durable default.
///
/// Built on vapor/sqlite-nio, which vendors SQLite and is maintained with Linux as a first-class
/// platform (GRDB, the other candidate, has community-maintained Linux support).
///
/// - Durability: WAL journal with `synchronous=FULL`, so an enrollment or an accepted step that a
///   call reported is on disk and survives a power cut.
/// - Atomicity across processes: every operation that decides a race runs in a `BEGIN IMMEDIATE`
///   transaction (SQLite's write lock), and the accepted step is a compare-and-set
///   (`UPDATE … WHERE id = ? AND last_accepted_step < ?`), so several processes sharing the file
///   never both accept one code. A process that finds the file locked waits up to
///   ``Options/busyTimeoutMilliseconds`` instead of failing.
/// - Reads run on a second connection, on a thread of its own: in WAL mode a reader sees the last
///   commit and never waits for the writer, so reads neither wait behind a set of writes nor end
///   the transaction concurrent writes share (a read on the writing connection would have to
///   commit it first, or see writes that might still roll back).
/// - Secrets are sealed with AES-256-GCM by a `SecretSealer` under the operator's key,
///   bound to their record's id. Opening checks that every sealed row has its key, so a wrong or
///   missing key fails at start-up, not at the first sign-in.
/// - The schema is versioned by append-only migrations recorded in the file.
///
/// Call ``close()`` when done.
public final class SQLiteAuthStore: AuthStore {
    /// Settings for opening a store.
    public struct Options: Sendable {
        /// How long an operation waits for another process's write lock before it fails with
        /// ``SQLiteAuthStoreError/busy(path:timeoutMilliseconds:)``.
        public var busyTimeoutMilliseconds: Int
        /// Whether opening runs `PRAGMA quick_check` (linear in the file's size) and refuses a damaged file.
        public var checksIntegrityOnOpen: Bool
        /// The most operations that share one commit (group commit): concurrent writes join the
        /// transaction that is open, and the last one in commits it for all, so a burst costs
        /// one `fsync` instead of one each; concurrent sign-ins are decided together, up to as
        /// many in one set. 1 gives every operation a commit of its own.
        public var maximumOperationsPerCommit: Int

        /// Creates options; the defaults wait 10 seconds, check integrity and let 256 operations
        /// share a commit.
        public init(busyTimeoutMilliseconds: Int = 10_000, checksIntegrityOnOpen: Bool = true, maximumOperationsPerCommit: Int = 256) {
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.checksIntegrityOnOpen = checksIntegrityOnOpen
            self.maximumOperationsPerCommit = max(1, maximumOperationsPerCommit)
        }
    }

    /// The database file.
    public let path: String
    /// The sealer that seals new secrets and opens stored ones.
    public let sealer: SecretSealer
    let options: Options
    /// The connection every write, and every read inside a write, runs on.
    let connection: SQLiteConnection
    /// The read-only connection that reads outside writes run on (``ConnectionRole/reader``).
    let readerConnection: SQLiteConnection
    /// The one thread each connection's statements run on (see ``open(path:sealer:options:)``).
    private let threadPools: [NIOThreadPool]
    let lock = AsyncSerialLock()
    /// The transaction concurrent writes share until one of them commits it; touched only by
    /// the holder of ``lock``.
    let openBatch = Mutex<CommitBatch?>(nil)
    /// Writes waiting for ``lock``: while there are some, a write leaves the transaction open for them.
    let waitingWrites = Atomic(0)
    /// Set by tests to make the next commit fail, as a full disk would.
    let commitFailureInjected = Atomic(false)
    /// Transactions committed since the store opened, for tests and benchmarks of group commit.
    let commits = Atomic(0)
    /// Concurrent first steps of sign-ins, decided together.
    let signInStarts: OperationBatcher<String, SignInFactors, SQLiteAuthStoreError>
    /// Second steps taken up (``pendingSignInContext(_:)``), in sets.
    let signInContexts: OperationBatcher<PendingSignInRecord, PendingSignInContext?, SQLiteAuthStoreError>
    /// Concurrent sign-in completions, decided together.
    let signInCompletions: OperationBatcher<SignInCompletionBatch.Request, SignInCompletion, SQLiteAuthStoreError>
    /// Concurrent wrong codes of sign-ins, counted together.
    let signInFailures: OperationBatcher<SignInFailureBatch.Request, SignInFailure, SQLiteAuthStoreError>
    private let closed = Mutex(false)
    /// Set once by ``open(path:sealer:options:)``, before the store is handed out.
    let codeDigestSealer = Mutex<SecretSealer?>(nil)

    private init(
        path: String, sealer: SecretSealer, options: Options, connection: SQLiteConnection, readerConnection: SQLiteConnection,
        threadPools: [NIOThreadPool]
    ) {
        self.path = path
        self.sealer = sealer
        self.options = options
        self.connection = connection
        self.readerConnection = readerConnection
        self.threadPools = threadPools
        // Halves above 32: with one writer, a batch running while the other half's callers do
        // the rest of their sign-in keeps the writer busy (OperationBatcher).
        let maximumBatch = options.maximumOperationsPerCommit
        signInStarts = OperationBatcher(maximumBatch: maximumBatch, splitsAbove: 32)
        signInContexts = OperationBatcher(maximumBatch: maximumBatch, splitsAbove: 32)
        signInCompletions = OperationBatcher(maximumBatch: maximumBatch, splitsAbove: 32)
        signInFailures = OperationBatcher(maximumBatch: maximumBatch, splitsAbove: 32)
    }

    /// Opens (or creates, readable by its owner only) the database at `path`, brings its schema up
    /// to date and checks that `sealer` holds every key its rows are sealed under.
    ///
    /// - Throws: ``SQLiteAuthStoreError`` saying what is wrong: a missing or read-only
    ///   directory, a file that is not a database or is corrupt, a schema from a newer OTPKit, or
    ///   ``SQLiteAuthStoreError/missingSealingKeys(path:keyIDs:currentKeyID:)`` for a wrong key.
    public static func open(
        path: String,
        sealer: SecretSealer,
        options: Options = Options()
    ) async throws(SQLiteAuthStoreError) -> SQLiteAuthStore {
        // A thread for each connection: SQLite waits for another connection's lock by sleeping in
        // the thread that runs the statement, and on the process-wide pool two such waits could
        // take every thread, leaving none for the connection that holds the lock to finish.
        createPrivately(path)
        var threadPools: [NIOThreadPool] = []
        var connections: [SQLiteConnection] = []
        for _ in 0..<2 {
            let threadPool = NIOThreadPool(numberOfThreads: 1)
            threadPool.start()
            threadPools.append(threadPool)
            do {
                connections.append(
                    try await SQLiteConnection.open(
                        storage: .file(path: path), threadPool: threadPool, on: MultiThreadedEventLoopGroup.singleton.any()))
            } catch {
                for connection in connections { try? await connection.close().get() }
                for threadPool in threadPools { try? await threadPool.shutdownGracefully() }
                if let error = error as? SQLiteError { throw diagnose(error, path: path) }
                throw .cannotOpen(path: path, reason: "\(error)")
            }
        }
        let store = SQLiteAuthStore(
            path: path, sealer: sealer, options: options, connection: connections[0], readerConnection: connections[1],
            threadPools: threadPools)
        do {
            try await store.configure()
            try await store.migrate()
            try await store.createSignInWrites()
            try await store.configureReader()
            try await store.sealedTables.checkSealingKeys(with: sealer)
            let digestKeys = try await store.loadCodeDigestKey()
            store.codeDigestSealer.withLock { $0 = digestKeys }
        } catch {
            try? await store.close()
            throw error
        }
        return store
    }

    private func configure() async throws(SQLiteAuthStoreError) {
        // busy_timeout replaces sqlite-nio's default busy handler, which retries without sleeping.
        try await execute("PRAGMA busy_timeout = \(max(0, options.busyTimeoutMilliseconds))")
        let mode = try await switchToWAL()
        guard mode == "wal" else {
            throw .readOnly(path: path, reason: "the journal cannot be switched to WAL (it stays \(mode ?? "unknown"))")
        }
        try await execute("PRAGMA synchronous = FULL")
        try await execute("PRAGMA foreign_keys = ON")
        // A set of sign-ins runs in a savepoint of the shared transaction, and a savepoint keeps
        // the pages it changes in a journal of its own, which SQLite spills to a temporary file
        // past 64 KiB; in memory it costs a copy, on disk a write.
        try await execute("PRAGMA temp_store = MEMORY")
        if options.checksIntegrityOnOpen {
            let problems = try await integrityProblems(quick: true)
            guard problems.isEmpty else { throw .corrupt(path: path, detail: problems.prefix(3).joined(separator: "; ")) }
        }
    }

    /// The reader waits for a lock as the writer does (only a checkpoint or a crash recovery by
    /// another connection makes it wait), and can never write: a write sent to it by mistake fails
    /// instead of bypassing the shared transaction.
    private func configureReader() async throws(SQLiteAuthStoreError) {
        try await execute("PRAGMA busy_timeout = \(max(0, options.busyTimeoutMilliseconds))", on: .reader)
        try await execute("PRAGMA query_only = ON", on: .reader)
    }

    /// Switches the journal to WAL and returns the mode SQLite reports. Two connections switching a
    /// new file at once make one of them fail with `SQLITE_BUSY` at once, without the busy handler
    /// (the switch needs the file to itself), so the switch is tried again until the busy timeout.
    private func switchToWAL() async throws(SQLiteAuthStoreError) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(max(0, options.busyTimeoutMilliseconds))
        while true {
            do {
                return try await execute("PRAGMA journal_mode = WAL").first?.column("journal_mode")?.string
            } catch .busy where ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Runs `PRAGMA integrity_check` (or `quick_check`) and returns what it found, one problem per
    /// element; empty when the file is sound.
    public func integrityProblems(quick: Bool = false) async throws(SQLiteAuthStoreError) -> [String] {
        let rows = try await locked { () throws(SQLiteAuthStoreError) in
            try await self.execute(quick ? "PRAGMA quick_check" : "PRAGMA integrity_check")
        }
        // SQLite answers one row per problem, or (as sqlite-nio's build does) one row of lines.
        let lines = rows.compactMap { $0.columns.first?.data.string }.flatMap { $0.split(separator: "\n").map(String.init) }
        return lines == ["ok"] ? [] : lines
    }

    /// Closes the database. Later calls fail with ``SQLiteAuthStoreError/closed(path:)``.
    public func close() async throws(SQLiteAuthStoreError) {
        try await lock.withLock { () async throws(SQLiteAuthStoreError) in
            await commitOpenBatch()
            let wasClosed = closed.withLock { closed in
                defer { closed = true }
                return closed
            }
            guard !wasClosed else { return }
            // Through the futures, which a cancelled task still waits for: the async forms give up
            // when the caller's task is cancelled and leave the connection open.
            do {
                try await connection.close().get()
                try await readerConnection.close().get()
                for threadPool in threadPools { try await threadPool.shutdownGracefully() }
            } catch {
                throw .database(path: path, message: "closing failed: \(error)")
            }
        }
    }

    /// A store dropped without ``close()`` still closes its connection (in the background), instead
    /// of leaking the file handle or tripping sqlite-nio's debug assertion.
    deinit {
        if !closed.withLock({ $0 }) {
            for (connection, threadPool) in zip([connection, readerConnection], threadPools) {
                connection.close().whenComplete { _ in threadPool.shutdownGracefully { _ in } }
            }
        }
    }

    // MARK: Running statements

    /// Which connection runs a statement.
    enum ConnectionRole {
        /// The connection of writes and of reads inside them; its statements run under ``lock``.
        case writer
        /// The read-only connection: a statement runs alone as its own transaction, sees the
        /// last commit, and needs no lock (its one thread runs the statements in turn).
        case reader
    }

    /// Runs one statement. On the writer, the caller holds ``lock``.
    @discardableResult
    func execute(_ sql: String, _ binds: [SQLiteData] = [], on role: ConnectionRole = .writer) async throws(SQLiteAuthStoreError)
        -> [SQLiteRow]
    {
        guard !closed.withLock({ $0 }) else { throw .closed(path: path) }
        do {
            return try await (role == .writer ? connection : readerConnection).query(sql, binds)
        } catch let error as SQLiteError {
            throw Self.diagnose(error, path: path, busyTimeout: options.busyTimeoutMilliseconds)
        } catch {
            throw .database(path: path, message: "\(error)")
        }
    }

    // MARK: Errors

    static func diagnose(_ error: SQLiteError, path: String, busyTimeout: Int = 0) -> SQLiteAuthStoreError {
        switch error.reason {
        case .notADatabase:
            return .notADatabase(path: path)
        case .corrupt, .corruptIndex, .corruptSequenceSchema, .corruptVirtualTable:
            return .corrupt(path: path, detail: error.message)
        case .readOnly, .readonlyDirectory, .readonlyCantLock, .readonlyInRecovery, .readonlyInRollback,
            .readonlyBackingMoved, .permission:
            return .readOnly(path: path, reason: error.message)
        case .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .cantOpenUnfollowedSymlink, .cantOpenCygwinPath,
            .ioErrorFailedSharedMemOpen:
            return diagnoseCannotOpen(path: path, message: error.message)
        case .busy, .busyTimeout, .busyInRecovery, .busyInSnapshot, .locked:
            return .busy(path: path, timeoutMilliseconds: busyTimeout)
        case .full:
            return .diskFull(path: path)
        default:
            return .database(path: path, message: error.message)
        }
    }

    /// SQLite says only "unable to open database file"; the file system says why.
    private static func diagnoseCannotOpen(path: String, message: String) -> SQLiteAuthStoreError {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var status = stat()
        if stat(directory.isEmpty ? "/" : directory, &status) != 0 {
            return .cannotOpen(path: path, reason: "directory \(directory) does not exist")
        }
        if (status.st_mode & S_IFMT) != S_IFDIR {
            return .cannotOpen(path: path, reason: "\(directory) is not a directory")
        }
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            return .cannotOpen(path: path, reason: "it is a directory")
        }
        if access(directory.isEmpty ? "/" : directory, W_OK) != 0 {
            return .readOnly(path: path, reason: "directory \(directory) is not writable")
        }
        if access(path, F_OK) == 0, access(path, R_OK | W_OK) != 0 {
            return .readOnly(path: path, reason: "the file is not readable and writable")
        }
        return .cannotOpen(path: path, reason: message)
    }
}
