internal import OTPDurableStore
internal import OTPEnrollment
internal import SQLiteNIO

/// The steps of every sign-in, in sets: the first step's read, and the completion's or the wrong
/// code's write.
///
/// sqlite-nio runs each statement as a trip to the connection's thread and back, and that trip,
/// not the commit, is what a sign-in spends most of its time on once group commit shares the
/// `fsync`. Concurrent sign-ins therefore go through `OperationBatcher`s: a batch's reads and
/// writes are each one statement over all of its sign-ins, in one savepoint of the shared
/// transaction, so a batch of many sign-ins costs about as many statements as one did.
extension SQLiteEnrollmentStore {
    /// Answers `requests` (user ids) together (``signInFactors(userID:)``): one result each, in
    /// order; all fail together only when a read does. The factors are read on the reader, which
    /// sees every acknowledged write, and the writer's thread, the store's bottleneck, runs nothing.
    func startSignIns(_ requests: [String]) async -> [Result<SignInFactors, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            return try await signInStartBatch(requests).factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The factors of the users `requests`, read on the reader in one statement of rows tagged
    /// with their kind: each statement is a trip to the connection's thread and back.
    private func signInStartBatch(_ requests: [String]) async throws(SQLiteEnrollmentStoreError) -> SignInStartBatch {
        let users = SignInStartBatch.users(of: requests)
        let userBinds = users.map { SQLiteData.text($0) }
        let placeholders = Self.placeholders(users.count)
        let rows = try await execute(
            StoredColumns.taggedUnion(
                [
                    .init(kind: "factor", columns: Self.factorColumns, from: "factors WHERE user_id IN (\(placeholders))"),
                    .init(kind: "phone", columns: Self.phoneFactorColumns, from: "phone_factors WHERE user_id IN (\(placeholders))"),
                ], orderedBy: "kind, enrolled_at, id"),
            userBinds + userBinds, on: .reader)
        var totp: [FactorRecord] = []
        var phone: [PhoneFactorRecord] = []
        for row in rows {
            if try RowReader(row: row).text("kind") == "factor" {
                totp.append(try factorRecord(row))
            } else {
                phone.append(try phoneFactorRecord(row))
            }
        }
        return SignInStartBatch(requests, totp: totp, phone: phone)
    }

    /// Completes `requests` together (``completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``):
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

    /// Counts `requests` together (``recordSignInFailure(credential:failureKey:at:limit:lockout:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func recordSignInFailures(_ requests: [SignInFailureBatch.Request]) async -> [Result<SignInFailure, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            let batch = try await transaction { () throws(SQLiteEnrollmentStoreError) -> SignInFailureBatch in
                let batch = SignInFailureBatch(requests, rows: try await self.signInFailureRows(requests))
                try await self.storeFailureCounters(batch.counters)
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The spent credentials and failure counters `requests` name, in one statement. The caller
    /// holds a transaction.
    private func signInFailureRows(_ requests: [SignInFailureBatch.Request]) async throws(SQLiteEnrollmentStoreError)
        -> SignInFailureBatch.Rows
    {
        let (credentials, failureKeys) = SignInFailureBatch.keys(of: requests)
        let tagged = try await execute(
            """
            SELECT 'spent' AS kind, id, NULL AS consecutive_failures, NULL AS locked_until
            FROM spent_sign_ins WHERE (expires_at, id) IN (VALUES \(Self.placeholders(credentials.count, row: 2)))
            UNION ALL
            SELECT 'counter', key, consecutive_failures, locked_until
            FROM failure_counters WHERE key IN (\(Self.placeholders(failureKeys.count)))
            """,
            credentials.flatMap(Self.spentKey) + failureKeys.map { .text($0) })
        var rows = SignInFailureBatch.Rows()
        for row in tagged {
            let reader = RowReader(row: row)
            if try reader.text("kind") == "spent" {
                rows.spentCredentials.insert(try reader.text("id"))
            } else {
                let key = try reader.text("id")
                rows.failures[key] = try reader.failureCounter(key: key)
            }
        }
        return rows
    }

    /// The spent credentials, failure counters and factors `requests` name. The caller holds a
    /// transaction.
    private func signInCompletionRows(_ requests: [SignInCompletionBatch.Request]) async throws(SQLiteEnrollmentStoreError)
        -> SignInCompletionBatch.Rows
    {
        let (credentials, factorIDs) = SignInCompletionBatch.keys(of: requests)
        let factorBinds = factorIDs.map { SQLiteData.text($0) }
        // One statement for the three kinds of row, each row tagged with its kind: every statement
        // costs a trip to the connection's thread and back, more than reading the rows does.
        let tagged = try await execute(
            """
            SELECT 'spent' AS kind, id, NULL AS user_id, NULL AS consecutive_failures, NULL AS locked_until, NULL AS last_accepted_step
            FROM spent_sign_ins WHERE (expires_at, id) IN (VALUES \(Self.placeholders(credentials.count, row: 2)))
            UNION ALL
            SELECT 'counter', key, NULL, consecutive_failures, locked_until, NULL
            FROM failure_counters WHERE key IN (\(Self.placeholders(factorIDs.count)))
            UNION ALL
            SELECT 'factor', id, user_id, NULL, NULL, last_accepted_step
            FROM factors WHERE id IN (\(Self.placeholders(factorIDs.count)))
            """,
            credentials.flatMap(Self.spentKey) + factorBinds + factorBinds)
        var rows = SignInCompletionBatch.Rows()
        for row in tagged {
            let reader = RowReader(row: row)
            switch try reader.text("kind") {
            case "spent":
                rows.spentCredentials.insert(try reader.text("id"))
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
    /// trigger applies it. The caller holds a transaction.
    ///
    /// A row per completion rather than per write: sqlite-nio prepares every statement anew, and
    /// the parse of a set's statement, which grows with its placeholders, was a quarter of the
    /// writer thread's time.
    private func write(_ batch: SignInCompletionBatch) async throws(SQLiteEnrollmentStoreError) {
        guard !batch.completed.isEmpty else { return }
        try await execute(
            "INSERT INTO sign_in_completions (\(Self.signInCompletionColumns)) VALUES \(Self.placeholders(batch.completed.count, row: 13))",
            batch.completed.flatMap { completed -> [SQLiteData] in
                [
                    .text(completed.credential.id), .integer(.init(completed.credential.expiresAt)), .text(completed.factorID),
                    .integer(.init(completed.step)), .integer(completed.clearsFailures ? 1 : 0), .integer(completed.sessionCap),
                ] + Self.sessionBinds(completed.session)
            })
    }

    /// Stores `counters`, each over any row it had, as one statement. The caller holds a transaction.
    private func storeFailureCounters(_ counters: [(key: String, counter: FailureCounter)]) async throws(SQLiteEnrollmentStoreError) {
        guard !counters.isEmpty else { return }
        try await execute(
            """
            INSERT INTO failure_counters (key, consecutive_failures, locked_until) VALUES \(Self.placeholders(counters.count, row: 3))
            ON CONFLICT (key) DO UPDATE SET consecutive_failures = excluded.consecutive_failures, locked_until = excluded.locked_until
            """,
            counters.flatMap { key, counter -> [SQLiteData] in
                [.text(key), .integer(counter.consecutiveFailures), counter.lockedUntil.map { .integer(.init($0)) } ?? .null]
            })
    }

    private static let signInCompletionColumns =
        "credential_id, credential_expires_at, factor_id, step, clears_failures, session_cap, \(sessionColumns)"

    /// Creates ``signInWriteSchema`` on the connection; once, after the migrations.
    func createSignInWrites() async throws(SQLiteEnrollmentStoreError) {
        for statement in Self.signInWriteSchema {
            try await execute(statement)
        }
    }

    /// A view that is only ever inserted into, with a trigger that applies each row, so that a
    /// set's completions (credentials spent, steps, cleared counters and sessions) take one trip to
    /// the connection's thread instead of one per statement: sqlite-nio prepares and runs one
    /// statement per trip, and on a busy machine the trips, not the writes, are what a set waits
    /// for. Temporary objects of the connection, made when it opens: nothing of them is in the
    /// file, so they need no migration and each process has its own. Rows apply in the order they
    /// are inserted, and one that fails fails the statement.
    static let signInWriteSchema = [
        """
        CREATE TEMP VIEW sign_in_completions (\(signInCompletionColumns))
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        """,
        // One completion as `completeSignIn` alone writes it: the credential spent, the step
        // recorded, the failures cleared, the session stored, and the user's sessions beyond the
        // cap ended, oldest first.
        """
        CREATE TEMP TRIGGER sign_in_completions_apply INSTEAD OF INSERT ON sign_in_completions
        BEGIN
            INSERT INTO spent_sign_ins (expires_at, id) VALUES (NEW.credential_expires_at, NEW.credential_id);
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

    /// The values of ``sessionColumns`` for `record`.
    static func sessionBinds(_ record: SessionRecord) -> [SQLiteData] {
        [
            .text(record.id), .text(record.userID), .text(record.firstFactorProvider),
            .integer(.init(record.authenticatedAt)), record.secondFactorEnrollmentID.map { .text($0) } ?? .null,
            .integer(.init(record.lastUsedAt)), .integer(.init(record.expiresAt)),
        ]
    }
}
