internal import OTPDurableStore
internal import OTPEnrollment
internal import SQLiteNIO

/// The two writes of every sign-in, in sets.
///
/// sqlite-nio runs each statement as a trip to the connection's thread and back, and that trip,
/// not the commit, is what a sign-in spends most of its time on once group commit shares the
/// `fsync`. Concurrent sign-ins therefore go through `OperationBatcher`s: a batch's reads and
/// writes are each one statement over all of its sign-ins, in one savepoint of the shared
/// transaction, so a batch of many sign-ins costs about as many statements as one did.
extension SQLiteEnrollmentStore {
    /// Starts `requests` together (``factorsStartingSignIn(_:)``): one result each, in order; all
    /// fail together only when the transaction does.
    func startSignIns(_ requests: [PendingSignInRecord]) async -> [Result<SignInFactors, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            let batch = try await transaction { () throws(SQLiteEnrollmentStoreError) -> SignInStartBatch in
                let users = SignInStartBatch.users(of: requests)
                let userBinds = users.map { SQLiteData.text($0) }
                let totp = try await self.execute(
                    "SELECT \(Self.factorColumns) FROM factors WHERE user_id IN (\(Self.placeholders(users.count))) ORDER BY enrolled_at, id",
                    userBinds)
                let phone = try await self.execute(
                    """
                    SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE user_id IN (\(Self.placeholders(users.count)))
                    ORDER BY enrolled_at, id
                    """,
                    userBinds)
                let batch = SignInStartBatch(
                    requests, totp: try self.factorRecords(totp),
                    phone: try phone.map { row throws(SQLiteEnrollmentStoreError) in try self.phoneFactorRecord(row) })
                if !batch.credentials.isEmpty {
                    try await self.execute(
                        "INSERT INTO pending_sign_ins (\(Self.pendingSignInColumns)) VALUES \(Self.placeholders(batch.credentials.count, row: 5))",
                        batch.credentials.flatMap(Self.pendingSignInBinds))
                }
                return batch
            }
            return batch.factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// Completes `requests` together (``completeSignIn(credentialID:factorID:step:at:session:maximumSessionsPerUser:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func completeSignIns(_ requests: [SignInCompletionBatch.Request]) async -> [Result<SignInCompletion, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            let batch = try await transaction { () throws(SQLiteEnrollmentStoreError) -> SignInCompletionBatch in
                let batch = SignInCompletionBatch(requests, rows: try await self.signInCompletionRows(requests))
                try await self.write(batch)
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The credentials, failure counters and factors `requests` name. The caller holds a transaction.
    private func signInCompletionRows(_ requests: [SignInCompletionBatch.Request]) async throws(SQLiteEnrollmentStoreError)
        -> SignInCompletionBatch.Rows
    {
        let (credentialIDs, factorIDs) = SignInCompletionBatch.keys(of: requests)
        let credentialBinds = credentialIDs.map { SQLiteData.text($0) }
        let factorBinds = factorIDs.map { SQLiteData.text($0) }
        // One statement for the three kinds of row, each row tagged with its kind: every statement
        // costs a trip to the connection's thread and back, more than reading the rows does.
        let tagged = try await execute(
            """
            SELECT 'credential' AS kind, id, user_id, first_factor_provider, created_at, expires_at,
                   NULL AS consecutive_failures, NULL AS locked_until, NULL AS last_accepted_step
            FROM pending_sign_ins WHERE id IN (\(Self.placeholders(credentialIDs.count)))
            UNION ALL
            SELECT 'counter', key, NULL, NULL, NULL, NULL, consecutive_failures, locked_until, NULL
            FROM failure_counters WHERE key IN (\(Self.placeholders(factorIDs.count)))
            UNION ALL
            SELECT 'factor', id, user_id, NULL, NULL, NULL, NULL, NULL, last_accepted_step
            FROM factors WHERE id IN (\(Self.placeholders(factorIDs.count)))
            """,
            credentialBinds + factorBinds + factorBinds)
        var rows = SignInCompletionBatch.Rows()
        for row in tagged {
            let reader = RowReader(row: row)
            switch try reader.text("kind") {
            case "credential":
                let record = try reader.pendingSignInRecord()
                rows.credentials[record.id] = record
            case "counter":
                let key = try reader.text("id")
                rows.failures[key] = try reader.failureCounter(key: key)
            default:
                let (id, factor) = try reader.completionFactor()
                rows.factors[id] = factor
            }
        }
        return rows
    }

    /// What `batch` decided to write. The caller holds a transaction.
    private func write(_ batch: SignInCompletionBatch) async throws(SQLiteEnrollmentStoreError) {
        if !batch.deletedCredentials.isEmpty {
            try await execute(
                "DELETE FROM pending_sign_ins WHERE id IN (\(Self.placeholders(batch.deletedCredentials.count)))",
                batch.deletedCredentials.map { .text($0) })
        }
        if !batch.acceptedSteps.isEmpty {
            try await execute(
                """
                WITH accepted (id, step) AS (VALUES \(Self.placeholders(batch.acceptedSteps.count, row: 2)))
                UPDATE factors SET last_accepted_step = accepted.step FROM accepted WHERE factors.id = accepted.id
                """,
                batch.acceptedSteps.flatMap { [.text($0.factorID), .integer(.init($0.step))] })
        }
        if !batch.clearedFailures.isEmpty {
            try await execute(
                "DELETE FROM failure_counters WHERE key IN (\(Self.placeholders(batch.clearedFailures.count)))",
                batch.clearedFailures.map { .text($0) })
        }
        guard !batch.sessions.isEmpty else { return }
        try await execute(
            "INSERT INTO sessions (\(Self.sessionColumns)) VALUES \(Self.placeholders(batch.sessions.count, row: 7))",
            batch.sessions.flatMap(Self.sessionBinds))
        // Each user keeps the newest sessions up to the cap.
        for (cap, users) in batch.usersByCap {
            try await execute(
                """
                DELETE FROM sessions WHERE rowid IN (
                    SELECT session_rowid FROM (
                        SELECT rowid AS session_rowid, row_number() OVER (PARTITION BY user_id ORDER BY rowid DESC) AS newer
                        FROM sessions WHERE user_id IN (\(Self.placeholders(users.count)))
                    ) WHERE newer > ?
                )
                """,
                users.map { .text($0) } + [.integer(cap)])
        }
    }

    /// `count` placeholders separated by commas, or `count` parenthesised rows of `row` each.
    static func placeholders(_ count: Int, row: Int = 1) -> String {
        let one = row == 1 ? "?" : "(" + Array(repeating: "?", count: row).joined(separator: ", ") + ")"
        return Array(repeating: one, count: count).joined(separator: ", ")
    }

    /// The values of ``pendingSignInColumns`` for `record`.
    static func pendingSignInBinds(_ record: PendingSignInRecord) -> [SQLiteData] {
        [
            .text(record.id), .text(record.userID), .text(record.firstFactorProvider),
            .integer(.init(record.createdAt)), .integer(.init(record.expiresAt)),
        ]
    }

    /// The values of ``sessionColumns`` for `record`.
    static func sessionBinds(_ record: SessionRecord) -> [SQLiteData] {
        [
            .text(record.id), .text(record.userID), .text(record.firstFactorProvider),
            .integer(.init(record.authenticatedAt)), record.secondFactorEnrollmentID.map { .text($0) } ?? .null,
            .integer(.init(record.lastUsedAt)), .integer(.init(record.expiresAt)),
        ]
    }
}
