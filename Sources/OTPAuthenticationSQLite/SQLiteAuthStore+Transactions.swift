internal import Synchronization

/// Group commit: concurrent writes share one transaction and so one `fsync`.
///
/// The connection runs one operation at a time, in arrival order (``AsyncSerialLock``). A write
/// that finds no transaction open begins one (`BEGIN IMMEDIATE`, SQLite's write lock, so no other
/// process can slip in halfway); each write that joins it runs inside a savepoint of its own, so a
/// write that fails is undone alone and the others keep theirs (the first, alone in the transaction
/// so far, fails by rolling it back). After its operation a write leaves the
/// transaction open when more writes are waiting and the batch is not full, and commits it
/// otherwise: a lone write commits at once, never waiting for company. Every write returns only
/// once the commit that holds it is on disk; when that commit fails, every write of the batch
/// fails with the error and none of them is in the database.
///
/// Reads never see a batch's uncommitted writes: they run on the reader connection, which sees
/// only commits, so they neither wait for a batch nor end it. A statement that needs the writer
/// alone (a single-statement write, a check of the whole file) commits the open batch first.
extension SQLiteAuthStore {
    /// Runs `body` alone on the writer, outside a transaction (single-statement writes, maintenance).
    @discardableResult
    func locked<Value: Sendable>(
        _ body: @escaping @Sendable () async throws(SQLiteAuthStoreError) -> Value
    ) async throws(SQLiteAuthStoreError) -> Value {
        try await uncancelled { () async throws(SQLiteAuthStoreError) -> Value in
            try await self.lock.withLock { () async throws(SQLiteAuthStoreError) -> Value in
                await self.commitOpenBatch()
                return try await body()
            }
        }
    }

    /// Runs `operation` in a task of its own, so that it runs to its end even when the calling task
    /// is cancelled. The connection's thread pool skips the statements of a cancelled task
    /// (`NIOThreadPool.runIfActive`): a write cut short between its `BEGIN` and its `COMMIT` or
    /// `ROLLBACK` would leave open a transaction no later write knows of, and every write after it
    /// would fail until the store reopened.
    private func uncancelled<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws(SQLiteAuthStoreError) -> Value
    ) async throws(SQLiteAuthStoreError) -> Value {
        let result = await Task { () async -> Result<Value, SQLiteAuthStoreError> in
            do throws(SQLiteAuthStoreError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }.value
        return try result.get()
    }

    /// Runs `body`, whose one write statement commits by itself (autocommit) and whose reads are
    /// of the connection's temporary tables, alone on the writer, and returns once that commit is
    /// durable. With a commit failure injected, the statement runs in a transaction that is then
    /// rolled back, so that it fails as a failed commit would: its writes undone.
    func autocommitted<Value: Sendable>(
        _ body: @escaping @Sendable () async throws(SQLiteAuthStoreError) -> Value
    ) async throws(SQLiteAuthStoreError) -> Value {
        try await locked { () async throws(SQLiteAuthStoreError) -> Value in
            guard self.commitFailureInjected.exchange(false, ordering: .relaxed) else {
                let value = try await body()
                self.commits.add(1, ordering: .relaxed)
                return value
            }
            try await self.execute("BEGIN IMMEDIATE")
            _ = try? await body()
            _ = try? await self.execute("ROLLBACK")
            throw .database(path: self.path, message: "the commit failed (injected by a test)")
        }
    }

    /// Runs `body` as one all-or-nothing write, in the transaction concurrent writes share, and
    /// returns once its commit is durable.
    @discardableResult
    func transaction<Value: Sendable>(
        _ body: @escaping @Sendable () async throws(SQLiteAuthStoreError) -> Value
    ) async throws(SQLiteAuthStoreError) -> Value {
        try await uncancelled { () async throws(SQLiteAuthStoreError) -> Value in
            try await self.joinTransaction(body)
        }
    }

    /// ``transaction(_:)`` in the calling task.
    private func joinTransaction<Value: Sendable>(
        _ body: () async throws(SQLiteAuthStoreError) -> Value
    ) async throws(SQLiteAuthStoreError) -> Value {
        waitingWrites.add(1, ordering: .relaxed)
        let (outcome, batch) = try await lock.withLock {
            () async throws(SQLiteAuthStoreError) -> (Result<Value, SQLiteAuthStoreError>, CommitBatch) in
            waitingWrites.subtract(1, ordering: .relaxed)
            let (batch, began) = try await openOrJoinBatch()
            let outcome = began ? await runFirst(body) : await runInSavepoint(body, batch: batch)
            let members = batch.join()
            if members >= options.maximumOperationsPerCommit || waitingWrites.load(ordering: .relaxed) == 0 {
                await commitOpenBatch()
            }
            return (outcome, batch)
        }
        try await batch.committed()
        return try outcome.get()
    }

    /// The open transaction, or a new one, and whether it is new. The caller holds ``lock``.
    private func openOrJoinBatch() async throws(SQLiteAuthStoreError) -> (CommitBatch, began: Bool) {
        if let batch = openBatch.withLock({ $0 }) { return (batch, false) }
        try await execute("BEGIN IMMEDIATE")
        let batch = CommitBatch()
        openBatch.withLock { $0 = batch }
        return (batch, true)
    }

    /// Runs `body` as the first write of the transaction it has just begun. Nothing else is in the
    /// transaction yet, so a failure rolls all of it back, which undoes what a savepoint would
    /// and saves the savepoint's two statements (each a trip to the connection's thread) on
    /// every transaction, most of all on a lone write. The caller holds ``lock``.
    private func runFirst<Value>(_ body: () async throws(SQLiteAuthStoreError) -> Value) async -> Result<Value, SQLiteAuthStoreError> {
        do throws(SQLiteAuthStoreError) {
            return .success(try await body())
        } catch {
            await abortOpenBatch(error)
            return .failure(error)
        }
    }

    /// Runs `body` in a savepoint of the open transaction: a failure rolls back its writes only.
    /// When even that fails (SQLite rolled the whole transaction back after an I/O error, say),
    /// the batch ends with the error. The caller holds ``lock``.
    private func runInSavepoint<Value>(
        _ body: () async throws(SQLiteAuthStoreError) -> Value, batch: CommitBatch
    ) async -> Result<Value, SQLiteAuthStoreError> {
        do throws(SQLiteAuthStoreError) {
            try await execute("SAVEPOINT write")
        } catch {
            await abortOpenBatch(error)
            return .failure(error)
        }
        do throws(SQLiteAuthStoreError) {
            let value = try await body()
            try await execute("RELEASE write")
            return .success(value)
        } catch {
            do throws(SQLiteAuthStoreError) {
                try await execute("ROLLBACK TO write")
                try await execute("RELEASE write")
            } catch {
                await abortOpenBatch(error)
            }
            return .failure(error)
        }
    }

    /// Commits the open transaction, if any, and answers its writes. The caller holds ``lock``.
    func commitOpenBatch() async {
        guard let batch = openBatch.withLock({ $0 }) else { return }
        do throws(SQLiteAuthStoreError) {
            if commitFailureInjected.exchange(false, ordering: .relaxed) {
                throw .database(path: path, message: "the commit failed (injected by a test)")
            }
            try await execute("COMMIT")
            commits.add(1, ordering: .relaxed)
            openBatch.withLock { $0 = nil }
            batch.finish(.success(()))
        } catch {
            await abortOpenBatch(error)
        }
    }

    /// Rolls the open transaction back and fails every write in it with `error`. The caller holds
    /// ``lock``.
    private func abortOpenBatch(_ error: SQLiteAuthStoreError) async {
        guard let batch = openBatch.withLock({ $0 }) else { return }
        // Fails harmlessly when SQLite has already rolled back.
        _ = try? await execute("ROLLBACK")
        openBatch.withLock { $0 = nil }
        batch.finish(.failure(error))
    }

    /// Makes the next commit fail as a full disk would, for tests of what a failed batch leaves.
    package func injectCommitFailure() {
        commitFailureInjected.store(true, ordering: .relaxed)
    }

    /// How many transactions have committed since the store opened: fewer than the writes when
    /// writes shared commits.
    package var committedTransactions: Int { commits.load(ordering: .relaxed) }
}
