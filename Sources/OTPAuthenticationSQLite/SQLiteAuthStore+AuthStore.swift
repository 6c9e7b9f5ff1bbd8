public import OTPAuthentication
internal import OTPDurableStore
internal import SQLiteNIO

extension SQLiteAuthStore {
    // MARK: Pending enrollments

    public func insertPendingEnrollment(_ record: PendingEnrollmentRecord) async throws(SQLiteAuthStoreError) {
        let binds = try pendingBinds(record)
        try await locked { () throws(SQLiteAuthStoreError) in
            try await self.execute("INSERT INTO pending_enrollments (\(Self.pendingColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", binds)
        }
    }

    public func pendingEnrollment(id: String) async throws(SQLiteAuthStoreError) -> PendingEnrollmentRecord? {
        let rows = try await execute("SELECT \(Self.pendingColumns) FROM pending_enrollments WHERE id = ?", [.text(id)], on: .reader)
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try pendingRecord(row) }
    }

    public func removePendingEnrollment(id: String) async throws(SQLiteAuthStoreError) {
        try await locked { () throws(SQLiteAuthStoreError) in
            try await self.execute("DELETE FROM pending_enrollments WHERE id = ?", [.text(id)])
        }
    }

    public func finalizeEnrollment(
        pendingID: String,
        factor: FactorRecord,
        maximumFactorCount: Int
    ) async throws(SQLiteAuthStoreError) -> EnrollmentFinalization {
        let binds = try factorBinds(factor)
        return try await transaction { () throws(SQLiteAuthStoreError) -> EnrollmentFinalization in
            let pending = try await self.execute("SELECT 1 FROM pending_enrollments WHERE id = ?", [.text(pendingID)])
            guard !pending.isEmpty else { return .pendingEnrollmentNotFound }
            let count =
                try await self.execute(
                    Self.factorCountQuery, [.text(factor.userID)]
                )
                .first?.column("n")?.integer ?? 0
            guard count < maximumFactorCount else { return .factorLimitReached }
            try await self.execute("DELETE FROM pending_enrollments WHERE id = ?", [.text(pendingID)])
            try await self.execute("INSERT INTO factors (\(Self.factorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", binds)
            try await self.recordAudit()
            return .enrolled
        }
    }

    // MARK: Enrolled factors

    public func factors(userID: String) async throws(SQLiteAuthStoreError) -> [FactorRecord] {
        try factorRecords(try await factorRows(userID: userID, on: .reader))
    }

    /// On the writer, the caller holds ``lock``.
    private func factorRows(userID: String, on role: ConnectionRole = .writer) async throws(SQLiteAuthStoreError) -> [SQLiteRow] {
        try await execute("SELECT \(Self.factorColumns) FROM factors WHERE user_id = ? ORDER BY enrolled_at, id", [.text(userID)], on: role)
    }

    func factorRecords(_ rows: [SQLiteRow]) throws(SQLiteAuthStoreError) -> [FactorRecord] {
        var records: [FactorRecord] = []
        for row in rows { records.append(try factorRecord(row)) }
        return records
    }

    public func factor(id: String) async throws(SQLiteAuthStoreError) -> FactorRecord? {
        let rows = try await execute("SELECT \(Self.factorColumns) FROM factors WHERE id = ?", [.text(id)], on: .reader)
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try factorRecord(row) }
    }

    public func removeFactor(id: String, userID: String) async throws(SQLiteAuthStoreError) -> FactorRecord? {
        let rows = try await transaction { () throws(SQLiteAuthStoreError) in
            let rows = try await self.execute(
                "DELETE FROM factors WHERE id = ? AND user_id = ? RETURNING \(Self.factorColumns)", [.text(id), .text(userID)]
            )
            if !rows.isEmpty {
                try await SQLiteTransaction(store: self).resetFailures(key: id)
                try await self.recordAudit()
            }
            return rows
        }
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try factorRecord(row) }
    }

    public func renameFactor(id: String, userID: String, displayName: String?) async throws(SQLiteAuthStoreError) -> Bool {
        try await renameRow(in: "factors", id: id, userID: userID, displayName: displayName)
    }

    /// The `UPDATE` of ``renameFactor(id:userID:displayName:)`` and ``renamePhoneFactor(id:userID:displayName:)``,
    /// with its audit events when it renamed a row. `table` is one of this store's own names.
    func renameRow(in table: String, id: String, userID: String, displayName: String?) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            let renamed = try await !self.execute(
                "UPDATE \(table) SET display_name = ? WHERE id = ? AND user_id = ? RETURNING id",
                [displayName.map { .text($0) } ?? .null, .text(id), .text(userID)]
            ).isEmpty
            if renamed { try await self.recordAudit() }
            return renamed
        }
    }

    /// The compare-and-set is the `UPDATE`'s `WHERE` clause: SQLite evaluates it under its write
    /// lock, so of two processes offering the same step only the first changes the row.
    public func recordAcceptedStep(_ step: UInt64, factorID: String) async throws(SQLiteAuthStoreError) -> StepAcceptance {
        let stored = try Self.storedStep(step)
        return try await transaction { () throws(SQLiteAuthStoreError) -> StepAcceptance in
            try await self.compareAndSetStep(stored, factorID: factorID, userID: nil)
        }
    }

    /// The `UPDATE` of ``recordAcceptedStep(_:factorID:)``, for a factor of `userID` when one is
    /// given. The caller holds a transaction.
    private func compareAndSetStep(_ step: Int64, factorID: String, userID: String?) async throws(SQLiteAuthStoreError) -> StepAcceptance {
        let owner: SQLiteData = userID.map { .text($0) } ?? .null
        let updated = try await execute(
            """
            UPDATE factors SET last_accepted_step = ?1
            WHERE id = ?2 AND (?3 IS NULL OR user_id = ?3) AND (last_accepted_step IS NULL OR last_accepted_step < ?1)
            RETURNING id
            """,
            [.integer(.init(step)), .text(factorID), owner]
        )
        guard updated.isEmpty else { return .accepted }
        let current = try await execute(
            "SELECT last_accepted_step FROM factors WHERE id = ?1 AND (?2 IS NULL OR user_id = ?2)", [.text(factorID), owner]
        )
        guard let row = current.first else { return .factorNotFound }
        let last = try RowReader(row: row).optionalInteger("last_accepted_step", of: factorID) ?? 0
        return .rejected(lastAcceptedStep: UInt64(clamping: last))
    }

    // MARK: Failure throttling

    public func failureCounter(key: String) async throws(SQLiteAuthStoreError) -> FailureCounter {
        try await readFailureCounter(key: key, on: .reader)
    }

    public func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) async throws(SQLiteAuthStoreError) -> FailureCounter {
        try await transaction { () throws(SQLiteAuthStoreError) -> FailureCounter in
            let counter = try await self.readFailureCounter(key: key).recordingFailure(at: time, limit: limit, lockout: lockout)
            try await self.execute(
                """
                INSERT INTO failure_counters (key, consecutive_failures, locked_until, counted_at) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (key) DO UPDATE SET consecutive_failures = ?2, locked_until = ?3, counted_at = ?4
                """,
                [
                    .text(key), .integer(counter.consecutiveFailures), counter.lockedUntil.map { .integer(.init($0)) } ?? .null,
                    .integer(.init(time)),
                ]
            )
            try await self.recordAudit()
            return counter
        }
    }

    /// On the writer, the caller holds ``lock``.
    func readFailureCounter(key: String, on role: ConnectionRole = .writer) async throws(SQLiteAuthStoreError) -> FailureCounter {
        let rows = try await execute("SELECT consecutive_failures, locked_until FROM failure_counters WHERE key = ?", [.text(key)], on: role)
        guard let row = rows.first else { return .zero }
        return try RowReader(row: row).failureCounter(key: key)
    }

    public func resetFailures(key: String) async throws(SQLiteAuthStoreError) {
        try await locked { () throws(SQLiteAuthStoreError) in
            try await SQLiteTransaction(store: self).resetFailures(key: key)
        }
    }

    // MARK: Pending sign-ins

    public func isPendingSignInSpent(_ credential: PendingSignInRecord) async throws(SQLiteAuthStoreError) -> Bool {
        try await isSpent(credential, on: .reader)
    }

    /// One `INSERT … ON CONFLICT DO NOTHING RETURNING`: the process whose statement inserts the
    /// row is the one that spends it.
    public func spendPendingSignIn(_ credential: PendingSignInRecord) async throws(SQLiteAuthStoreError) -> Bool {
        try await locked { () throws(SQLiteAuthStoreError) in
            try await !self.execute(
                "INSERT INTO spent_sign_ins (expires_at, id) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id",
                Self.spentKey(credential)
            ).isEmpty
        }
    }

    /// The checks every sign-in completion starts with: the credential was not spent and has not
    /// expired at `time`. `nil` when both hold. The caller holds a transaction.
    func refuseCredential(_ credential: PendingSignInRecord, at time: Int64) async throws(SQLiteAuthStoreError) -> SignInCompletion? {
        credential.refusal(spent: try await isSpent(credential), at: time)
    }

    /// Marks `credential` spent. The caller holds a transaction in which it was not.
    func spend(_ credential: PendingSignInRecord) async throws(SQLiteAuthStoreError) {
        try await execute("INSERT INTO spent_sign_ins (expires_at, id) VALUES (?, ?)", Self.spentKey(credential))
    }

    /// On the writer, the caller holds ``lock``.
    func isSpent(_ credential: PendingSignInRecord, on role: ConnectionRole = .writer) async throws(SQLiteAuthStoreError) -> Bool {
        try await !execute("SELECT 1 FROM spent_sign_ins WHERE expires_at = ? AND id = ?", Self.spentKey(credential), on: role).isEmpty
    }

    /// The key of `credential`'s row in `spent_sign_ins`.
    static func spentKey(_ credential: PendingSignInRecord) -> [SQLiteData] {
        [.integer(.init(credential.expiresAt)), .text(credential.id)]
    }

    // MARK: Sessions

    @discardableResult
    public func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws(SQLiteAuthStoreError) -> Int {
        try await transaction { () throws(SQLiteAuthStoreError) -> Int in
            let ended = try await self.insertSessionRow(record, maximumPerUser: maximumPerUser)
            try await self.recordAudit()
            return ended
        }
    }

    /// Inserts the session, then ends the user's oldest sessions beyond `maximumPerUser` (rowids
    /// grow with each insert, so the new row has the highest and is never among them). The caller
    /// holds a transaction.
    func insertSessionRow(_ record: SessionRecord, maximumPerUser: Int) async throws(SQLiteAuthStoreError) -> Int {
        let binds = Self.sessionBinds(record)
        try await execute("INSERT INTO sessions (\(Self.sessionColumns)) VALUES (\(Self.placeholders(binds.count)))", binds)
        return try await execute(
            """
            DELETE FROM sessions WHERE rowid IN (
                SELECT rowid FROM sessions WHERE user_id = ?1 ORDER BY rowid DESC LIMIT -1 OFFSET ?2
            ) RETURNING id
            """,
            [.text(record.userID), .integer(max(1, maximumPerUser))]
        ).count
    }

    @discardableResult
    public func extendSession(id: String, lastUsedAt: Int64, expiresAt: Int64) async throws(SQLiteAuthStoreError) -> Bool {
        try await locked { () throws(SQLiteAuthStoreError) -> Bool in
            try await !self.execute(
                "UPDATE sessions SET last_used_at = ?, expires_at = ? WHERE id = ? RETURNING id",
                [.integer(.init(lastUsedAt)), .integer(.init(expiresAt)), .text(id)]
            ).isEmpty
        }
    }

    public func session(id: String) async throws(SQLiteAuthStoreError) -> SessionRecord? {
        let rows = try await execute("SELECT \(Self.sessionColumns) FROM sessions WHERE id = ?", [.text(id)], on: .reader)
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try sessionRecord(row) }
    }

    public func sessions(userID: String) async throws(SQLiteAuthStoreError) -> [SessionRecord] {
        let rows = try await execute(
            "SELECT \(Self.sessionColumns) FROM sessions WHERE user_id = ? ORDER BY authenticated_at, id", [.text(userID)], on: .reader)
        return try rows.map { row throws(SQLiteAuthStoreError) in try sessionRecord(row) }
    }

    public func removeSession(id: String) async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            if try await !self.execute("DELETE FROM sessions WHERE id = ? RETURNING id", [.text(id)]).isEmpty { try await self.recordAudit() }
        }
    }

    @discardableResult
    public func removeSessions(userID: String, except keptSessionID: String?) async throws(SQLiteAuthStoreError) -> Int {
        try await transaction { () throws(SQLiteAuthStoreError) -> Int in
            let ended = try await self.execute(
                "DELETE FROM sessions WHERE user_id = ? AND id IS NOT ? RETURNING id",
                [.text(userID), keptSessionID.map { .text($0) } ?? .null]
            ).count
            if ended > 0 { try await self.recordAudit() }
            return ended
        }
    }

    @discardableResult
    public func removeSessions(userID: String, signedInWith enrollmentID: String) async throws(SQLiteAuthStoreError) -> Int {
        try await transaction { () throws(SQLiteAuthStoreError) -> Int in
            let ended = try await self.execute(
                "DELETE FROM sessions WHERE user_id = ? AND second_factor_enrollment_id = ? RETURNING id",
                [.text(userID), .text(enrollmentID)]
            ).count
            if ended > 0 { try await self.recordAudit() }
            return ended
        }
    }

    // MARK: Sign-in in fewer round trips

    /// Concurrent first steps are answered together, their factors read on the reader in one
    /// statement per kind (`startSignIns(_:)`); nothing is written.
    public func signInFactors(userID: String) async throws(SQLiteAuthStoreError) -> SignInFactors {
        try await signInStarts.submit(userID) { requests in await self.startSignIns(requests) }
    }

    /// Concurrent second steps are taken up together, their rows read on the reader in four
    /// statements for all of them (`signInContexts(_:)`).
    public func pendingSignInContext(_ credential: PendingSignInRecord) async throws(SQLiteAuthStoreError) -> PendingSignInContext? {
        try await signInContexts.submit(credential) { requests in await self.signInContexts(requests) }
    }

    public func pendingSignInFailures(_ credential: PendingSignInRecord, failureKey: String) async throws(SQLiteAuthStoreError)
        -> FailureCounter?
    {
        guard try await !isSpent(credential, on: .reader) else { return nil }
        return try await readFailureCounter(key: failureKey, on: .reader)
    }

    /// Concurrent completions are decided and applied together, one statement for all of them in
    /// a commit of their own (`completeSignIns(_:)`): a second step costs a share of one commit.
    public func completeSignIn(
        credential: PendingSignInRecord,
        factorID: String,
        step: UInt64,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(SQLiteAuthStoreError) -> SignInCompletion {
        let request = SignInCompletionBatch.Request(
            credential: credential, factorID: factorID, step: try Self.storedStep(step), time: time, session: session,
            maximumSessionsPerUser: maximumSessionsPerUser)
        return try await signInCompletions.submit(request) { requests in await self.completeSignIns(requests) }
    }

    /// Concurrent wrong codes are counted together, one statement for all of them in a commit of
    /// their own (`recordSignInFailures(_:)`), so a refusal costs a share of one commit.
    public func recordSignInFailure(
        credential: PendingSignInRecord, failureKey: String, at time: Int64, limit: Int, lockout: Int64
    ) async throws(SQLiteAuthStoreError) -> SignInFailure {
        let request = SignInFailureBatch.Request(credential: credential, failureKey: failureKey, time: time, limit: limit, lockout: lockout)
        return try await signInFailures.submit(request) { requests in await self.recordSignInFailures(requests) }
    }

    // MARK: Housekeeping

    public func purgeExpired(before time: Int64, failuresCountedBefore: Int64) async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            try await self.execute("DELETE FROM pending_enrollments WHERE deadline < ?", [.integer(.init(time))])
            try await self.execute("DELETE FROM spent_sign_ins WHERE expires_at < ?", [.integer(.init(time))])
            try await self.execute("DELETE FROM sessions WHERE expires_at < ?", [.integer(.init(time))])
            try await self.execute("DELETE FROM quota_buckets WHERE drained_at <= ?", [.integer(.init(time &* 1_000))])
            try await self.execute("DELETE FROM sign_in_sources WHERE expires_at < ?", [.integer(.init(time))])
            try await self.execute("DELETE FROM phone_verifications WHERE expires_at < ?", [.integer(.init(time))])
            try await self.execute("DELETE FROM email_actions WHERE expires_at < ?", [.integer(.init(time))])
            try await self.execute("DELETE FROM passkey_challenges WHERE expires_at < ?", [.integer(.init(time))])
            try await self.execute(
                """
                DELETE FROM failure_counters
                WHERE (consecutive_failures = 0 OR counted_at < ?2) AND (locked_until IS NULL OR locked_until < ?1)
                """,
                [.integer(.init(time)), .integer(.init(failuresCountedBefore))]
            )
        }
    }
}

extension SQLiteAuthStore {
    /// One `BEGIN IMMEDIATE` transaction: the bucket is read and written under SQLite's write
    /// lock, so processes sharing the file never both take its last room.
    public func consumeQuota(key: String, window: Int64, limit: Int, at time: Int64) async throws(SQLiteAuthStoreError) -> QuotaConsumption {
        try await transaction { () throws(SQLiteAuthStoreError) -> QuotaConsumption in
            let rows = try await self.execute("SELECT drained_at FROM quota_buckets WHERE key = ?", [.text(key)])
            let stored = try rows.first.map { row throws(SQLiteAuthStoreError) in
                QuotaBucket(drainedAt: try RowReader(row: row).integer("drained_at", of: key))
            }
            let (bucket, outcome) = QuotaBucket.consuming(stored, window: window, limit: limit, at: time)
            if let bucket, bucket != stored {
                try await self.execute(
                    "INSERT INTO quota_buckets (key, drained_at) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET drained_at = ?2",
                    [.text(key), .integer(.init(bucket.drainedAt))]
                )
            }
            return outcome
        }
    }
}

extension SQLiteAuthStore {
    public func recordSignInSource(_ source: String, accountID: String, until: Int64) async throws(SQLiteAuthStoreError) {
        try await locked { () throws(SQLiteAuthStoreError) in
            try await self.execute(
                """
                INSERT INTO sign_in_sources (user_id, source, expires_at) VALUES (?1, ?2, ?3)
                ON CONFLICT (user_id, source) DO UPDATE SET expires_at = max(expires_at, excluded.expires_at)
                """,
                [.text(accountID), .text(source), .integer(.init(until))]
            )
        }
    }

    public func isKnownSignInSource(_ source: String, accountID: String, at time: Int64) async throws(SQLiteAuthStoreError) -> Bool {
        try await !execute(
            "SELECT 1 FROM sign_in_sources WHERE user_id = ? AND source = ? AND expires_at >= ?",
            [.text(accountID), .text(source), .integer(.init(time))], on: .reader
        ).isEmpty
    }
}
