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

    /// Takes `requests` up together (``pendingSignInContext(_:)``): one context each, in order,
    /// `nil` for a spent credential; all fail together only when a read does.
    ///
    /// Four statements on the reader for the whole set, sent at once so that its thread runs them
    /// back to back: a second step waits for one trip to that thread, and shares its statements'
    /// preparation (sqlite-nio prepares each anew) with the rest of the set. Each statement reads
    /// the last commit; the service decides nothing from them that the completion, in its own
    /// write, does not check again, so they need no snapshot in common.
    func signInContexts(_ requests: [PendingSignInRecord]) async -> [Result<PendingSignInContext?, SQLiteEnrollmentStoreError>] {
        let (credentials, users) = SignInContextBatch.keys(of: requests)
        let userBinds = users.map { SQLiteData.text($0) }
        let placeholders = Self.placeholders(users.count)
        async let spentRows = execute(
            "SELECT id FROM spent_sign_ins WHERE (expires_at, id) IN (VALUES \(Self.placeholders(credentials.count, row: 2)))",
            credentials.flatMap(Self.spentKey), on: .reader)
        async let accountRows = execute("SELECT \(Self.accountColumns) FROM accounts WHERE id IN (\(placeholders))", userBinds, on: .reader)
        async let identityRows = execute(
            """
            SELECT account_id, \(StoredColumns.providerIdentity) FROM provider_identities
            WHERE account_id IN (\(placeholders)) ORDER BY account_id, provider_id
            """,
            userBinds, on: .reader)
        async let factors = signInStartBatch(requests.map(\.userID))
        do {
            let (spent, accounts, identities, factors) = try await (spentRows, accountRows, identityRows, factors)
            var identitiesByUser: [String: [ProviderIdentity]] = [:]
            for row in identities {
                let reader = RowReader(row: row)
                let accountID = try reader.text("account_id")
                identitiesByUser[accountID, default: []].append(try reader.providerIdentity(of: accountID))
            }
            let batch = SignInContextBatch(
                requests, spent: Set(try spent.map { row throws(SQLiteEnrollmentStoreError) in try RowReader(row: row).text("id") }),
                accounts: try accounts.map { row throws(SQLiteEnrollmentStoreError) in try accountRecord(row) }, identities: identitiesByUser,
                factors: factors)
            return batch.contexts.map { .success($0) }
        } catch let error as SQLiteEnrollmentStoreError {
            return requests.map { _ in .failure(error) }
        } catch {
            return requests.map { _ in .failure(.database(path: path, message: "\(error)")) }
        }
    }

    /// Completes `requests` together (``completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``):
    /// one result each, in order; all fail together only when the statement does.
    ///
    /// The whole set is one `INSERT` in autocommit, whose trigger decides and applies each
    /// completion (``signInWriteSchema``), and one read of the outcomes it recorded: two trips to
    /// the writer's thread instead of four (`BEGIN`, a read of the rows, the writes, `COMMIT`).
    /// On a busy machine each trip waits for thread wake-ups, and those trips, not the work, were
    /// most of a set's time. A write statement in autocommit takes SQLite's write lock before it
    /// reads, as `BEGIN IMMEDIATE` does, so no other process writes between the checks and the
    /// writes; and it is atomic, so a set that fails writes nothing.
    func completeSignIns(_ requests: [SignInCompletionBatch.Request]) async -> [Result<SignInCompletion, SQLiteEnrollmentStoreError>] {
        do throws(SQLiteEnrollmentStoreError) {
            let rows = try await locked { () throws(SQLiteEnrollmentStoreError) -> [SQLiteRow] in
                try await self.execute(
                    "INSERT INTO sign_in_completions (\(Self.signInCompletionColumns)) VALUES \(Self.placeholders(requests.count, row: 15))",
                    requests.enumerated().flatMap { seq, request -> [SQLiteData] in
                        [
                            .integer(seq), .text(request.credential.id), .text(request.credential.userID),
                            .integer(.init(request.credential.expiresAt)), .integer(.init(request.time)), .text(request.factorID),
                            .integer(.init(request.step)), .integer(max(1, request.maximumSessionsPerUser)),
                        ] + Self.sessionBinds(request.session)
                    })
                self.countCommit()
                return try await self.execute("DELETE FROM sign_in_outcomes RETURNING seq, outcome, detail")
            }
            var outcomes = [SignInCompletion?](repeating: nil, count: requests.count)
            for row in rows {
                let reader = RowReader(row: row)
                let seq = Int(try reader.integer("seq", of: "sign-in outcome"))
                guard outcomes.indices.contains(seq) else { throw .database(path: path, message: "a sign-in outcome for no request (\(seq))") }
                outcomes[seq] = try Self.signInCompletion(
                    reader.text("outcome"), detail: reader.optionalInteger("detail", of: "sign-in outcome"), path: path)
            }
            return try outcomes.map { outcome throws(SQLiteEnrollmentStoreError) in
                guard let outcome else { throw .database(path: path, message: "a sign-in completion without an outcome") }
                return .success(outcome)
            }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The outcome the completion trigger recorded, as `completeSignIn` answers it.
    private static func signInCompletion(_ outcome: String, detail: Int64?, path: String) throws(SQLiteEnrollmentStoreError) -> SignInCompletion {
        switch (outcome, detail) {
        case ("completed", _): .completed
        case ("credentialNotFound", _): .credentialNotFound
        case ("credentialExpired", let expiresAt?): .credentialExpired(expiresAt: expiresAt)
        case ("locked", let until?): .locked(until: until)
        case ("factorNotFound", _): .factorNotFound
        case ("stepRejected", let last?): .stepRejected(lastAcceptedStep: UInt64(clamping: last))
        default: throw .database(path: path, message: "an unknown sign-in outcome \(outcome)")
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
        "seq, credential_id, credential_user_id, credential_expires_at, time, factor_id, step, session_cap, \(sessionColumns)"

    /// Creates ``signInWriteSchema`` on the connection; once, after the migrations.
    func createSignInWrites() async throws(SQLiteEnrollmentStoreError) {
        for statement in Self.signInWriteSchema {
            try await execute(statement)
        }
    }

    /// A view that is only ever inserted into, with a trigger that decides and applies each row, so
    /// that a set of completions is one statement (``completeSignIns(_:)``), and the table of
    /// outcomes the trigger leaves for the set's one read. Temporary objects of the connection,
    /// made when it opens: nothing of them is in the file, so they need no migration and each
    /// process has its own. Rows apply in the order they are inserted, each seeing what the rows
    /// before it wrote, and one that fails fails the statement.
    ///
    /// The trigger is `completeSignIn`'s rule (`SignInCompletionBatch`, which the PostgreSQL store
    /// applies in Swift) written again in SQL, deliberately: deciding in Swift needs the rows read
    /// first, in a transaction held open across two more trips to the writer's thread. The shared
    /// conformance suite holds the two to the same answers.
    static let signInWriteSchema = [
        "CREATE TEMP TABLE sign_in_outcomes (seq INTEGER PRIMARY KEY, outcome TEXT NOT NULL, detail INTEGER)",
        """
        CREATE TEMP VIEW sign_in_completions (\(signInCompletionColumns))
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        """,
        // The checks in the order `completeSignIn` makes them (spent, expired, locked, the factor
        // and its owner, the step), then, for a completion, what `completeSignIn` alone writes:
        // the credential spent, the step recorded, the failures cleared, the session stored, and
        // the user's sessions beyond the cap ended, oldest first.
        """
        CREATE TEMP TRIGGER sign_in_completions_apply INSTEAD OF INSERT ON sign_in_completions
        BEGIN
            INSERT INTO sign_in_outcomes (seq, outcome, detail)
            SELECT NEW.seq, outcome, CASE outcome
                WHEN 'credentialExpired' THEN NEW.credential_expires_at
                WHEN 'locked' THEN locked_until
                WHEN 'stepRejected' THEN last_accepted_step
            END
            FROM (
                SELECT CASE
                    WHEN spent.id IS NOT NULL THEN 'credentialNotFound'
                    WHEN NEW.time > NEW.credential_expires_at THEN 'credentialExpired'
                    WHEN NEW.time < counter.locked_until THEN 'locked'
                    WHEN factor.user_id IS NOT NEW.credential_user_id THEN 'factorNotFound'
                    WHEN factor.last_accepted_step >= NEW.step THEN 'stepRejected'
                    ELSE 'completed'
                END AS outcome, counter.locked_until, factor.last_accepted_step
                FROM (SELECT 1)
                LEFT JOIN spent_sign_ins AS spent ON spent.expires_at = NEW.credential_expires_at AND spent.id = NEW.credential_id
                LEFT JOIN failure_counters AS counter ON counter.key = NEW.factor_id
                LEFT JOIN factors AS factor ON factor.id = NEW.factor_id
            );
            INSERT INTO spent_sign_ins (expires_at, id)
            SELECT NEW.credential_expires_at, NEW.credential_id
            WHERE (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            UPDATE factors SET last_accepted_step = NEW.step
            WHERE id = NEW.factor_id AND (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            DELETE FROM failure_counters
            WHERE key = NEW.factor_id AND (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            INSERT INTO sessions (\(sessionColumns))
            SELECT NEW.id, NEW.user_id, NEW.first_factor_provider, NEW.authenticated_at, NEW.second_factor_enrollment_id,
                NEW.last_used_at, NEW.expires_at
            WHERE (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            DELETE FROM sessions
            WHERE (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed'
                AND user_id = NEW.user_id AND rowid NOT IN (
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
