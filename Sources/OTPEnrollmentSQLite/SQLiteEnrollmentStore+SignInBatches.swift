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
    /// fail together only when a read or the transaction does.
    ///
    /// The factors are read on the reader, which sees every acknowledged write, so that the
    /// writer's thread, the store's bottleneck, runs only the insert. A factor enrolled or withdrawn
    /// between the read and the insert is a write concurrent with the sign-in, and either order is
    /// one it could have had; the completion checks the factor again.
    func startSignIns(_ requests: [PendingSignInRecord]) async -> [Result<SignInFactors, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            let batch = try await signInStartBatch(requests)
            if !batch.credentials.isEmpty {
                try await transaction { () throws(SQLiteEnrollmentStoreError) in
                    try await self.execute(
                        "INSERT INTO pending_sign_ins (\(Self.pendingSignInColumns)) VALUES \(Self.placeholders(batch.credentials.count, row: 5))",
                        batch.credentials.flatMap(Self.pendingSignInBinds))
                }
            }
            return batch.factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The factors of the users of `requests`, read on the reader.
    private func signInStartBatch(_ requests: [PendingSignInRecord]) async throws(SQLiteEnrollmentStoreError) -> SignInStartBatch {
        let users = SignInStartBatch.users(of: requests)
        let userBinds = users.map { SQLiteData.text($0) }
        let totp = try await execute(
            "SELECT \(Self.factorColumns) FROM factors WHERE user_id IN (\(Self.placeholders(users.count))) ORDER BY enrolled_at, id",
            userBinds, on: .reader)
        let phone = try await execute(
            """
            SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE user_id IN (\(Self.placeholders(users.count)))
            ORDER BY enrolled_at, id
            """,
            userBinds, on: .reader)
        return SignInStartBatch(
            requests, totp: try factorRecords(totp),
            phone: try phone.map { row throws(SQLiteEnrollmentStoreError) in try phoneFactorRecord(row) })
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

    /// Counts `requests` together (``recordSignInFailure(credentialID:userID:failureKey:at:limit:lockout:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func recordSignInFailures(_ requests: [SignInFailureBatch.Request]) async -> [Result<SignInFailure, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            let batch = try await transaction { () throws(SQLiteEnrollmentStoreError) -> SignInFailureBatch in
                let batch = SignInFailureBatch(requests, rows: try await self.signInFailureRows(requests))
                var rows = batch.deletedCredentials.map { Self.signInWrite("credential", id: $0) }
                rows += batch.counters.map { Self.signInWrite("counter", id: $0.key, failures: $0.counter) }
                try await self.insertSignInWrites(rows)
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The credentials and failure counters `requests` name, in one statement. The caller holds a
    /// transaction.
    private func signInFailureRows(_ requests: [SignInFailureBatch.Request]) async throws(SQLiteEnrollmentStoreError)
        -> SignInFailureBatch.Rows
    {
        let (credentialIDs, failureKeys) = SignInFailureBatch.keys(of: requests)
        let tagged = try await execute(
            """
            SELECT 'credential' AS kind, id, user_id, first_factor_provider, created_at, expires_at,
                   NULL AS consecutive_failures, NULL AS locked_until
            FROM pending_sign_ins WHERE id IN (\(Self.placeholders(credentialIDs.count)))
            UNION ALL
            SELECT 'counter', key, NULL, NULL, NULL, NULL, consecutive_failures, locked_until
            FROM failure_counters WHERE key IN (\(Self.placeholders(failureKeys.count)))
            """,
            credentialIDs.map { .text($0) } + failureKeys.map { .text($0) })
        var rows = SignInFailureBatch.Rows()
        for row in tagged {
            let reader = RowReader(row: row)
            if try reader.text("kind") == "credential" {
                let record = try reader.pendingSignInRecord()
                rows.credentials[record.id] = record
            } else {
                let key = try reader.text("id")
                rows.failures[key] = try reader.failureCounter(key: key)
            }
        }
        return rows
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

    /// What `batch` decided to write: one row of `sign_in_completions` per completion, whose
    /// trigger applies it, and the expired credentials' deletions (rare, so a statement of their
    /// own when there are any). The caller holds a transaction.
    ///
    /// A row per completion rather than per write: sqlite-nio prepares every statement anew, and
    /// the parse of a set's statement, which grows with its placeholders, was a quarter of the
    /// writer thread's time.
    private func write(_ batch: SignInCompletionBatch) async throws(SQLiteEnrollmentStoreError) {
        if !batch.expiredCredentials.isEmpty {
            try await insertSignInWrites(batch.expiredCredentials.map { Self.signInWrite("credential", id: $0) })
        }
        guard !batch.completed.isEmpty else { return }
        try await execute(
            "INSERT INTO sign_in_completions (\(Self.signInCompletionColumns)) VALUES \(Self.placeholders(batch.completed.count, row: 12))",
            batch.completed.flatMap { completed -> [SQLiteData] in
                [
                    .text(completed.credentialID), .text(completed.factorID), .integer(.init(completed.step)),
                    .integer(completed.clearsFailures ? 1 : 0), .integer(completed.sessionCap),
                ] + Self.sessionBinds(completed.session)
            })
    }

    /// Applies `rows` of `sign_in_writes`, in order, as one statement. The caller holds a transaction.
    private func insertSignInWrites(_ rows: [[SQLiteData]]) async throws(SQLiteEnrollmentStoreError) {
        guard !rows.isEmpty else { return }
        try await execute(
            "INSERT INTO sign_in_writes (kind, id, consecutive_failures, locked_until) VALUES \(Self.placeholders(rows.count, row: 4))",
            rows.flatMap { $0 })
    }

    private static let signInCompletionColumns = "credential_id, factor_id, step, clears_failures, session_cap, \(sessionColumns)"

    /// One row of `sign_in_writes`: a credential to delete, or a failure counter to store.
    private static func signInWrite(_ kind: String, id: String, failures: FailureCounter? = nil) -> [SQLiteData] {
        [
            .text(kind), .text(id), failures.map { .integer($0.consecutiveFailures) } ?? .null,
            failures?.lockedUntil.map { .integer(.init($0)) } ?? .null,
        ]
    }

    /// Creates ``signInWriteSchema`` on the connection; once, after the migrations.
    func createSignInWrites() async throws(SQLiteEnrollmentStoreError) {
        for statement in Self.signInWriteSchema {
            try await execute(statement)
        }
    }

    /// Views that are only ever inserted into, with triggers that apply each row, so that a set's
    /// writes (credentials consumed or expired, failure counters counted, completions with their
    /// steps, cleared counters and sessions) take one trip to the connection's thread instead of
    /// one per statement: sqlite-nio prepares and runs one statement per trip, and on a busy
    /// machine the trips, not the writes, are what a set waits for. Temporary objects of the
    /// connection, made when it opens: nothing of them is in the file, so they need no migration
    /// and each process has its own. Rows apply in the order they are inserted, and one that fails
    /// fails the statement.
    static let signInWriteSchema = [
        "CREATE TEMP VIEW sign_in_writes (kind, id, consecutive_failures, locked_until) AS SELECT NULL, NULL, NULL, NULL",
        """
        CREATE TEMP TRIGGER sign_in_writes_credential INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'credential'
        BEGIN DELETE FROM pending_sign_ins WHERE id = NEW.id; END
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_counter INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'counter'
        BEGIN
            INSERT INTO failure_counters (key, consecutive_failures, locked_until)
            VALUES (NEW.id, NEW.consecutive_failures, NEW.locked_until)
            ON CONFLICT (key) DO UPDATE SET consecutive_failures = excluded.consecutive_failures, locked_until = excluded.locked_until;
        END
        """,
        """
        CREATE TEMP VIEW sign_in_completions (\(signInCompletionColumns))
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        """,
        // One completion as `completeSignIn` alone writes it: the credential consumed, the step
        // recorded, the failures cleared, the session stored, and the user's sessions beyond the
        // cap ended, oldest first.
        """
        CREATE TEMP TRIGGER sign_in_completions_apply INSTEAD OF INSERT ON sign_in_completions
        BEGIN
            DELETE FROM pending_sign_ins WHERE id = NEW.credential_id;
            UPDATE factors SET last_accepted_step = NEW.step WHERE id = NEW.factor_id;
            DELETE FROM failure_counters WHERE NEW.clears_failures AND key = NEW.factor_id;
            INSERT INTO sessions (\(sessionColumns))
            VALUES (NEW.id, NEW.user_id, NEW.first_factor_provider, NEW.authenticated_at, NEW.second_factor_enrollment_id,
                    NEW.last_used_at, NEW.expires_at);
            DELETE FROM sessions WHERE user_id = NEW.user_id AND rowid NOT IN (
                SELECT rowid FROM sessions WHERE user_id = NEW.user_id ORDER BY rowid DESC LIMIT NEW.session_cap
            );
        END
        """,
    ]

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
