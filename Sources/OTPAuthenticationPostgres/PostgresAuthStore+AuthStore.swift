public import OTPAuthentication
internal import OTPDurableStore
internal import PostgresNIO

extension PostgresAuthStore {
    // MARK: Pending enrollments

    public func insertPendingEnrollment(_ record: PendingEnrollmentRecord) async throws(PostgresAuthStoreError) {
        let sealed = try sealed(record.secret, recordID: record.id)
        try await transaction("storing a pending enrollment", retry: .ifNotApplied) { connection in
            try await connection.execute(
                """
                INSERT INTO pending_enrollments (\(unescaped: StoredColumns.pendingEnrollment))
                VALUES (\(record.id), \(record.userID), \(sealed.bytes), \(sealed.keyID), \(record.algorithm.rawValue),
                        \(Int64(record.digits)), \(record.period), \(record.createdAt), \(record.deadline))
                """)
        }
    }

    public func pendingEnrollment(id: String) async throws(PostgresAuthStoreError) -> PendingEnrollmentRecord? {
        let rows = try await reading("reading a pending enrollment") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.pendingEnrollment) FROM pending_enrollments WHERE id = \(id)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.pendingEnrollmentRecord(sealer) }.first
    }

    public func removePendingEnrollment(id: String) async throws(PostgresAuthStoreError) {
        try await transaction("removing a pending enrollment", retry: .always) { connection in
            try await connection.execute("DELETE FROM pending_enrollments WHERE id = \(id)")
        }
    }

    /// One transaction under the user's factor lock (a transaction-scoped advisory lock), so that
    /// two finalizations for one user cannot both count below the limit; the pending enrollment is
    /// locked as it is read, so only one finalization takes it.
    public func finalizeEnrollment(
        pendingID: String,
        factor: FactorRecord,
        maximumFactorCount: Int
    ) async throws(PostgresAuthStoreError) -> EnrollmentFinalization {
        let sealed = try sealed(factor.secret, recordID: factor.id)
        let step = try factor.lastAcceptedStep.map { step throws(PostgresAuthStoreError) in try Self.storedStep(step) }
        return try await transaction("finalizing an enrollment") { connection -> EnrollmentFinalization in
            try await connection.lockFactors(of: factor.userID)
            guard try await !connection.query("SELECT id FROM pending_enrollments WHERE id = \(pendingID) FOR UPDATE").isEmpty else {
                return .pendingEnrollmentNotFound
            }
            guard try await connection.factorCount(of: factor.userID) < maximumFactorCount else { return .factorLimitReached }
            try await connection.execute("DELETE FROM pending_enrollments WHERE id = \(pendingID)")
            try await connection.execute(
                """
                INSERT INTO factors (\(unescaped: StoredColumns.factor))
                VALUES (\(factor.id), \(factor.userID), \(factor.factorID), \(factor.displayName), \(factor.enrolledAt), \(sealed.bytes),
                        \(sealed.keyID), \(factor.algorithm.rawValue), \(Int64(factor.digits)), \(factor.period), \(step))
                """)
            try await connection.recordAudit()
            return .enrolled
        }
    }

    // MARK: Enrolled factors

    public func factors(userID: String) async throws(PostgresAuthStoreError) -> [FactorRecord] {
        let rows = try await reading("reading factors") { connection in try await connection.factorRows(of: userID) }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.factorRecord(sealer) }
    }

    public func factor(id: String) async throws(PostgresAuthStoreError) -> FactorRecord? {
        let rows = try await reading("reading a factor") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.factor) FROM factors WHERE id = \(id)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.factorRecord(sealer) }.first
    }

    public func removeFactor(id: String, userID: String) async throws(PostgresAuthStoreError) -> FactorRecord? {
        let rows = try await transaction("removing a factor") { connection in
            let rows = try await connection.query(
                "DELETE FROM factors WHERE id = \(id) AND user_id = \(userID) RETURNING \(unescaped: StoredColumns.factor)")
            if !rows.isEmpty {
                try await connection.resetFailures(key: id)
                try await connection.recordAudit()
            }
            return rows
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.factorRecord(sealer) }.first
    }

    public func renameFactor(id: String, userID: String, displayName: String?) async throws(PostgresAuthStoreError) -> Bool {
        try await renameRow(in: "factors", id: id, userID: userID, displayName: displayName)
    }

    /// The `UPDATE` of ``renameFactor(id:userID:displayName:)`` and ``renamePhoneFactor(id:userID:displayName:)``,
    /// with its audit events when it renamed a row. `table` is one of this store's own names.
    func renameRow(in table: String, id: String, userID: String, displayName: String?) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("renaming a factor", retry: .always) { connection in
            let renamed = try await !connection.query(
                "UPDATE \(unescaped: table) SET display_name = \(displayName) WHERE id = \(id) AND user_id = \(userID) RETURNING id"
            ).isEmpty
            if renamed { try await connection.recordAudit() }
            return renamed
        }
    }

    /// One conditional `UPDATE`: PostgreSQL re-checks its `WHERE` on the newest row version after
    /// waiting for a concurrent update of the row, so of any number of servers offering one step
    /// exactly one changes the row.
    public func recordAcceptedStep(_ step: UInt64, factorID: String) async throws(PostgresAuthStoreError) -> StepAcceptance {
        let stored = try Self.storedStep(step)
        return try await transaction("recording an accepted step", retry: .ifNotApplied) { connection in
            try await connection.compareAndSetStep(stored, factorID: factorID, userID: nil)
        }
    }

    static func storedStep(_ step: UInt64) throws(PostgresAuthStoreError) -> Int64 {
        guard let stored = Int64(exactly: step) else { throw .stepOutOfRange(step) }
        return stored
    }

    // MARK: Failure throttling

    public func failureCounter(key: String) async throws(PostgresAuthStoreError) -> FailureCounter {
        try await reading("reading a failure counter") { connection in try await connection.failureCounter(key: key) }
    }

    /// One upsert that counts in the row, so concurrent failures are all counted. It is
    /// `FailureCounter.recordingFailure` in SQL: a lock that ended is cleared with its failures,
    /// reaching `limit` locks until `time + lockout` and starts again from zero (a test checks the
    /// two against each other).
    public func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) async throws(PostgresAuthStoreError)
        -> FailureCounter
    {
        let limit = Int64(limit)
        let lockEnd = time &+ lockout
        let rows = try await transaction("counting a failure", retry: .ifNotApplied) { connection in
            let rows = try await connection.query(
                """
                INSERT INTO failure_counters AS c (key, consecutive_failures, locked_until, counted_at)
                VALUES (\(key), CASE WHEN 1 >= \(limit) THEN 0 ELSE 1 END, CASE WHEN 1 >= \(limit) THEN \(lockEnd) END, \(time))
                ON CONFLICT (key) DO UPDATE SET
                    counted_at = \(time),
                    consecutive_failures = CASE
                        WHEN (CASE WHEN c.locked_until <= \(time) THEN 0 ELSE c.consecutive_failures END) + 1 >= \(limit) THEN 0
                        ELSE (CASE WHEN c.locked_until <= \(time) THEN 0 ELSE c.consecutive_failures END) + 1 END,
                    locked_until = CASE
                        WHEN (CASE WHEN c.locked_until <= \(time) THEN 0 ELSE c.consecutive_failures END) + 1 >= \(limit) THEN \(lockEnd)
                        WHEN c.locked_until <= \(time) THEN NULL
                        ELSE c.locked_until END
                RETURNING consecutive_failures, locked_until
                """)
            try await connection.recordAudit()
            return rows
        }
        guard let row = rows.first else { throw .invalidRecord(recordID: key, detail: "the failure counter was not written") }
        return try PostgresStoredRow(row: row).failureCounter(key: key)
    }

    public func resetFailures(key: String) async throws(PostgresAuthStoreError) {
        try await transaction("resetting a failure counter", retry: .always) { connection in
            try await connection.resetFailures(key: key)
        }
    }

    // MARK: Pending sign-ins

    public func isPendingSignInSpent(_ credential: PendingSignInRecord) async throws(PostgresAuthStoreError) -> Bool {
        try await !reading("reading a pending sign-in") { connection in
            try await connection.query("SELECT 1 FROM spent_sign_ins WHERE expires_at = \(credential.expiresAt) AND id = \(credential.id)")
        }.isEmpty
    }

    /// One `INSERT … ON CONFLICT DO NOTHING RETURNING`: the server whose statement inserts the row
    /// is the one that spends it.
    public func spendPendingSignIn(_ credential: PendingSignInRecord) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("spending a pending sign-in", retry: .ifNotApplied) { connection in
            try await connection.claim(credential)
        }
    }

    // MARK: Sessions

    @discardableResult
    public func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws(PostgresAuthStoreError) -> Int {
        try await transaction("storing a session") { connection in
            let ended = try await connection.insertSession(record, maximumPerUser: maximumPerUser)
            try await connection.recordAudit()
            return ended
        }
    }

    @discardableResult
    public func extendSession(id: String, lastUsedAt: Int64, expiresAt: Int64) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("extending a session", retry: .always) { connection in
            try await !connection.query(
                "UPDATE sessions SET last_used_at = \(lastUsedAt), expires_at = \(expiresAt) WHERE id = \(id) RETURNING id"
            ).isEmpty
        }
    }

    public func session(id: String) async throws(PostgresAuthStoreError) -> SessionRecord? {
        let rows = try await reading("reading a session") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.session) FROM sessions WHERE id = \(id)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.sessionRecord() }.first
    }

    public func sessions(userID: String) async throws(PostgresAuthStoreError) -> [SessionRecord] {
        let rows = try await reading("reading a user's sessions") { connection in
            try await connection.query(
                "SELECT \(unescaped: StoredColumns.session) FROM sessions WHERE user_id = \(userID) ORDER BY authenticated_at, id COLLATE \"C\"")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.sessionRecord() }
    }

    public func removeSession(id: String) async throws(PostgresAuthStoreError) {
        try await transaction("ending a session", retry: .always) { connection in
            if try await !connection.query("DELETE FROM sessions WHERE id = \(id) RETURNING id").isEmpty { try await connection.recordAudit() }
        }
    }

    @discardableResult
    public func removeSessions(userID: String, except keptSessionID: String?) async throws(PostgresAuthStoreError) -> Int {
        try await transaction("ending sessions", retry: .ifNotApplied) { connection in
            let ended = try await connection.query(
                "DELETE FROM sessions WHERE user_id = \(userID) AND id IS DISTINCT FROM \(keptSessionID) RETURNING id"
            ).count
            if ended > 0 { try await connection.recordAudit() }
            return ended
        }
    }

    @discardableResult
    public func removeSessions(userID: String, signedInWith enrollmentID: String) async throws(PostgresAuthStoreError) -> Int {
        try await transaction("ending sessions", retry: .ifNotApplied) { connection in
            let ended = try await connection.query(
                "DELETE FROM sessions WHERE user_id = \(userID) AND second_factor_enrollment_id = \(enrollmentID) RETURNING id"
            ).count
            if ended > 0 { try await connection.recordAudit() }
            return ended
        }
    }

    // MARK: Sign-in in fewer round trips

    /// Concurrent first steps are answered together, one statement for all of them
    /// (`startSignIns(_:)`); nothing is written.
    public func signInFactors(userID: String) async throws(PostgresAuthStoreError) -> SignInFactors {
        try await signInStarts.submit(userID) { requests in await self.startSignIns(requests) }
    }

    /// Concurrent second steps are taken up together, one statement for all of them
    /// (`signInContexts(_:)`); nothing is written.
    public func pendingSignInContext(_ credential: PendingSignInRecord) async throws(PostgresAuthStoreError) -> PendingSignInContext? {
        try await signInContexts.submit(credential) { requests in await self.signInContexts(requests) }
    }

    /// The `NULL` of a column's type, for ``StoredColumns/taggedUnion(_:orderedBy:null:)``.
    static func typedNull(_ column: String) -> String {
        switch column {
        case "email_verified", "disabled", "user_verified", "backup_eligible", "backed_up": "NULL::boolean"
        case "sealed_secret", "credential_id", "user_handle", "public_key", "aaguid": "NULL::bytea"
        case "created_at", "expires_at", "enrolled_at", "digits", "period", "last_accepted_step", "last_sign_in_at", "tokens_valid_after",
            "sign_count", "last_used_at":
            "NULL::bigint"
        default: "NULL::text"
        }
    }

    /// One statement: whether the credential was spent, with the counter.
    public func pendingSignInFailures(_ credential: PendingSignInRecord, failureKey: String) async throws(PostgresAuthStoreError)
        -> FailureCounter?
    {
        let rows = try await reading("reading a pending sign-in") { connection in
            try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM spent_sign_ins WHERE expires_at = \(credential.expiresAt) AND id = \(credential.id)) AS spent,
                       coalesce(f.consecutive_failures, 0) AS consecutive_failures, f.locked_until
                FROM (SELECT 1) AS one LEFT JOIN failure_counters AS f ON f.key = \(failureKey)
                """)
        }
        guard let row = rows.first else { return nil }
        let reader = PostgresStoredRow(row: row)
        guard try !reader.boolean("spent", of: credential.id) else { return nil }
        return try reader.failureCounter(key: failureKey)
    }

    /// Concurrent completions are decided together, a few statements for all of them in one
    /// transaction (`completeSignIns(_:)`).
    public func completeSignIn(
        credential: PendingSignInRecord,
        factorID: String,
        step: UInt64,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(PostgresAuthStoreError) -> SignInCompletion {
        let request = SignInCompletionBatch.Request(
            credential: credential, factorID: factorID, step: try Self.storedStep(step), time: time, session: session,
            maximumSessionsPerUser: maximumSessionsPerUser)
        return try await signInCompletions.submit(request) { requests in await self.completeSignIns(requests) }
    }

    /// Concurrent wrong codes are counted together, a few statements for all of them in one
    /// transaction (`recordSignInFailures(_:)`).
    public func recordSignInFailure(
        credential: PendingSignInRecord, failureKey: String, at time: Int64, limit: Int, lockout: Int64
    ) async throws(PostgresAuthStoreError) -> SignInFailure {
        let request = SignInFailureBatch.Request(credential: credential, failureKey: failureKey, time: time, limit: limit, lockout: lockout)
        return try await signInFailures.submit(request) { requests in await self.recordSignInFailures(requests) }
    }

    // MARK: Quotas

    /// One upsert: the bucket fills only while the use fits (the arithmetic of
    /// `QuotaBucket.consuming`, which a test checks this against), so servers sharing the database
    /// never both take its last room. A refusal reads the bucket again for when it has room.
    public func consumeQuota(key: String, window: Int64, limit: Int, at time: Int64) async throws(PostgresAuthStoreError)
        -> QuotaConsumption
    {
        guard let rate = QuotaBucket.Rate(window: window, limit: limit) else {
            return QuotaBucket.consuming(nil, window: window, limit: limit, at: time).outcome
        }
        let now = time &* 1_000
        return try await transaction("counting a quota use", retry: .ifNotApplied) { connection -> QuotaConsumption in
            let filled = try await connection.query(
                """
                INSERT INTO quota_buckets AS q (key, drained_at) VALUES (\(key), \(now + rate.interval))
                ON CONFLICT (key) DO UPDATE SET drained_at = greatest(q.drained_at, \(now)) + \(rate.interval)
                WHERE greatest(q.drained_at, \(now)) + \(rate.interval) - \(now) <= \(rate.capacity)
                RETURNING drained_at
                """)
            if let row = filled.first {
                return rate.allowance(drainedAt: try PostgresStoredRow(row: row).integer("drained_at", of: key), at: now)
            }
            let full = try await connection.query("SELECT drained_at FROM quota_buckets WHERE key = \(key)")
            guard let row = full.first else {
                throw PostgresAuthStoreError.invalidRecord(recordID: key, detail: "the quota bucket was not read")
            }
            return rate.refusal(drainedAt: max(try PostgresStoredRow(row: row).integer("drained_at", of: key), now) &+ rate.interval)
        }
    }

    // MARK: Sign-in sources

    public func recordSignInSource(_ source: String, accountID: String, until: Int64) async throws(PostgresAuthStoreError) {
        try await transaction("recording a sign-in source", retry: .always) { connection in
            try await connection.execute(
                """
                INSERT INTO sign_in_sources AS s (user_id, source, expires_at) VALUES (\(accountID), \(source), \(until))
                ON CONFLICT (user_id, source) DO UPDATE SET expires_at = greatest(s.expires_at, excluded.expires_at)
                """)
        }
    }

    public func isKnownSignInSource(_ source: String, accountID: String, at time: Int64) async throws(PostgresAuthStoreError) -> Bool {
        try await reading("reading a sign-in source") { connection in
            try await !connection.query(
                "SELECT 1 FROM sign_in_sources WHERE user_id = \(accountID) AND source = \(source) AND expires_at >= \(time)"
            ).isEmpty
        }
    }

    // MARK: Housekeeping

    public func purgeExpired(before time: Int64, failuresCountedBefore: Int64) async throws(PostgresAuthStoreError) {
        try await transaction("purging expired records", retry: .always) { connection in
            try await connection.execute("DELETE FROM pending_enrollments WHERE deadline < \(time)")
            try await connection.execute("DELETE FROM spent_sign_ins WHERE expires_at < \(time)")
            try await connection.execute("DELETE FROM sessions WHERE expires_at < \(time)")
            try await connection.execute("DELETE FROM quota_buckets WHERE drained_at <= \(time &* 1_000)")
            try await connection.execute("DELETE FROM sign_in_sources WHERE expires_at < \(time)")
            try await connection.execute("DELETE FROM phone_verifications WHERE expires_at < \(time)")
            try await connection.execute("DELETE FROM email_actions WHERE expires_at < \(time)")
            try await connection.execute("DELETE FROM passkey_challenges WHERE expires_at < \(time)")
            try await connection.execute(
                """
                DELETE FROM failure_counters
                WHERE (consecutive_failures = 0 OR counted_at < \(failuresCountedBefore))
                    AND (locked_until IS NULL OR locked_until < \(time))
                """)
        }
    }
}

// The statements several operations share; each runs in its caller's transaction or connection.
extension PostgresAuthStore.Connection {
    /// Advisory-lock namespaces (the first key of `pg_advisory_xact_lock(int, int)`; the second is
    /// the hashed user id). A hash collision only makes two users take turns. They never change:
    /// `sessionsOfUser` is also written, as a number, in migration 8's
    /// `otpkit_sign_in_completion_rows`, and servers of two versions must take the same locks.
    enum LockNamespace: Int32 {
        case factorsOfUser = 0x4F54_5046
        case sessionsOfUser = 0x4F54_5053
    }

    /// Takes the user's factor lock until the transaction ends: what makes the factor limit hold
    /// across servers, since it spans two tables no constraint can count.
    func lockFactors(of userID: String) async throws {
        try await execute("SELECT pg_advisory_xact_lock(\(LockNamespace.factorsOfUser.rawValue), hashtext(\(userID)))")
    }

    /// The user's TOTP and phone factors together.
    func factorCount(of userID: String) async throws -> Int {
        let rows = try await query(PostgresAuthStore.userBound(PostgresAuthStore.factorCountQuery, userID))
        return Int(try rows.first.map { try PostgresStoredRow(row: $0).integer("n", of: userID) } ?? 0)
    }

    func factorRows(of userID: String) async throws -> [PostgresRandomAccessRow] {
        try await query("SELECT \(unescaped: StoredColumns.factor) FROM factors WHERE user_id = \(userID) ORDER BY enrolled_at, id")
    }

    func phoneFactorRows(of userID: String) async throws -> [PostgresRandomAccessRow] {
        try await query("SELECT \(unescaped: StoredColumns.phoneFactor) FROM phone_factors WHERE user_id = \(userID) ORDER BY enrolled_at, id")
    }

    /// The `UPDATE` of `recordAcceptedStep`, for a factor of `userID` when one is given.
    func compareAndSetStep(_ step: Int64, factorID: String, userID: String?) async throws -> StepAcceptance {
        let updated = try await query(
            """
            UPDATE factors SET last_accepted_step = \(step)
            WHERE id = \(factorID) AND (\(userID)::text IS NULL OR user_id = \(userID))
                AND (last_accepted_step IS NULL OR last_accepted_step < \(step))
            RETURNING id
            """)
        guard updated.isEmpty else { return .accepted }
        let current = try await query(
            "SELECT id, last_accepted_step FROM factors WHERE id = \(factorID) AND (\(userID)::text IS NULL OR user_id = \(userID))")
        guard let row = current.first else { return .factorNotFound }
        let last = try PostgresStoredRow(row: row).optionalInteger("last_accepted_step", of: factorID) ?? 0
        return .rejected(lastAcceptedStep: UInt64(clamping: last))
    }

    func failureCounter(key: String) async throws -> FailureCounter {
        let rows = try await query("SELECT consecutive_failures, locked_until FROM failure_counters WHERE key = \(key)")
        guard let row = rows.first else { return .zero }
        return try PostgresStoredRow(row: row).failureCounter(key: key)
    }

    /// Marks `credential` spent, unless it was: `true` when this transaction did. The row is
    /// locked until the transaction ends, so a concurrent claim of another server waits for it and
    /// then finds it, or, if this transaction releases it, inserts it itself.
    func claim(_ credential: PendingSignInRecord) async throws -> Bool {
        try await !query(
            """
            INSERT INTO spent_sign_ins (expires_at, id) VALUES (\(credential.expiresAt), \(credential.id))
            ON CONFLICT DO NOTHING RETURNING id
            """
        ).isEmpty
    }

    /// A sign-in completion that spends `credential`: the checks every completion starts with
    /// (the credential not spent, then not expired at `time`), then `body`, with the credential
    /// claimed (``claim(_:)``) so that concurrent completions of it wait for this one. The claim
    /// is released unless `body` completes.
    func completing(
        _ credential: PendingSignInRecord, at time: Int64, _ body: () async throws -> SignInCompletion
    ) async throws -> SignInCompletion {
        let claimed = try await claim(credential)
        let outcome: SignInCompletion
        if let refusal = credential.refusal(spent: !claimed, at: time) { outcome = refusal } else { outcome = try await body() }
        if claimed, outcome != .completed {
            try await execute("DELETE FROM spent_sign_ins WHERE expires_at = \(credential.expiresAt) AND id = \(credential.id)")
        }
        return outcome
    }

    /// Inserts the session, then ends the user's oldest sessions beyond `maximumPerUser`, under
    /// the user's session lock so that concurrent sign-ins of one user cannot both keep theirs
    /// beyond the cap. The new row has the highest `seq` and is never among the ended.
    func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws -> Int {
        try await execute("SELECT pg_advisory_xact_lock(\(LockNamespace.sessionsOfUser.rawValue), hashtext(\(record.userID)))")
        try await execute(
            """
            INSERT INTO sessions (\(unescaped: StoredColumns.session))
            VALUES (\(record.id), \(record.userID), \(record.firstFactorProvider), \(record.authenticatedAt),
                    \(record.secondFactorEnrollmentID), \(record.lastUsedAt), \(record.expiresAt), \(record.sessionClaims))
            """)
        return try await query(
            """
            DELETE FROM sessions WHERE id IN (
                SELECT id FROM sessions WHERE user_id = \(record.userID) ORDER BY seq DESC OFFSET \(Int64(max(1, maximumPerUser)))
            ) RETURNING id
            """
        ).count
    }
}
