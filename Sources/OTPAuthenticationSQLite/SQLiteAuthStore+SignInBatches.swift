internal import OTPDurableStore
internal import OTPAuthentication
internal import SQLiteNIO

/// The steps of every sign-in, in sets: the first step's read, the second step's reads, and the
/// completion's or the wrong code's write.
///
/// sqlite-nio runs each statement as a trip to the connection's thread and back, and that trip,
/// not the commit, is what a sign-in spends most of its time on once group commit shares the
/// `fsync`. Concurrent sign-ins therefore go through `OperationBatcher`s: a set's reads are a few
/// statements over all of its sign-ins on the reader, and its write is one statement that decides
/// and applies every sign-in of the set, so a set of many sign-ins costs about as many statements
/// as one did.
extension SQLiteAuthStore {
    /// Answers `requests` (user ids) together (``signInFactors(userID:)``): one result each, in
    /// order; all fail together only when a read does. The factors are read on the reader, which
    /// sees every acknowledged write, and the writer's thread, the store's bottleneck, runs nothing.
    func startSignIns(_ requests: [String]) async -> [Result<SignInFactors, SQLiteAuthStoreError>] {
        do throws(SQLiteAuthStoreError) {
            return try await signInStartBatch(requests).factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The factors of the users `requests`, read on the reader in one statement of rows tagged
    /// with their kind: each statement is a trip to the connection's thread and back.
    private func signInStartBatch(_ requests: [String]) async throws(SQLiteAuthStoreError) -> SignInStartBatch {
        let users = SignInStartBatch.users(of: requests)
        let userBinds = users.map { SQLiteData.text($0) }
        let placeholders = Self.placeholders(users.count)
        let rows = try await execute(
            StoredColumns.taggedUnion(
                [
                    .init(kind: FactorKind.totp.factorID, columns: Self.factorColumns, from: "factors WHERE user_id IN (\(placeholders))"),
                    .init(
                        kind: FactorKind.phone.factorID, columns: Self.phoneFactorColumns, from: "phone_factors WHERE user_id IN (\(placeholders))"),
                    .init(
                        kind: FactorKind.webauthn.factorID, columns: StoredColumns.passkey,
                        from: "passkeys WHERE enrollment_id IS NOT NULL AND user_id IN (\(placeholders))"),
                ], orderedBy: "kind, enrolled_at, id, created_at, credential_id"),
            userBinds + userBinds + userBinds, on: .reader)
        var totp: [FactorRecord] = []
        var phone: [PhoneFactorRecord] = []
        var passkeys: [PasskeyRecord] = []
        for row in rows {
            let tag = try RowReader(row: row).text("kind")
            switch FactorKind(rawValue: tag) {
            case .totp: totp.append(try factorRecord(row))
            case .phone: phone.append(try phoneFactorRecord(row))
            case .webauthn: passkeys.append(try RowReader(row: row).passkeyRecord())
            case .recoveryCode, nil: throw .invalidRecord(recordID: "a sign-in's factor", detail: "a row of kind \(tag), which the query has none of")
            }
        }
        return SignInStartBatch(requests, totp: totp, phone: phone, passkeys: passkeys)
    }

    /// Takes `requests` up together (``pendingSignInContext(_:)``): one context each, in order,
    /// `nil` for a spent credential; all fail together only when a read does.
    ///
    /// Four statements on the reader for the whole set, sent at once so that its thread runs them
    /// back to back: a second step waits for one trip to that thread, and shares its statements'
    /// preparation (sqlite-nio prepares each anew) with the rest of the set. Each statement reads
    /// the last commit; the service decides nothing from them that the completion, in its own
    /// write, does not check again, so they need no snapshot in common.
    func signInContexts(_ requests: [PendingSignInRecord]) async -> [Result<PendingSignInContext?, SQLiteAuthStoreError>] {
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
                requests, spent: Set(try spent.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).text("id") }),
                accounts: try accounts.map { row throws(SQLiteAuthStoreError) in try accountRecord(row) }, identities: identitiesByUser,
                factors: factors)
            return batch.contexts.map { .success($0) }
        } catch let error as SQLiteAuthStoreError {
            return requests.map { _ in .failure(error) }
        } catch {
            return requests.map { _ in .failure(.database(path: path, message: "\(error)")) }
        }
    }

    /// Completes `requests` together (``completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``):
    /// one result each, in order; all fail together only when the statement does.
    func completeSignIns(_ requests: [SignInCompletionBatch.Request]) async -> [Result<SignInCompletion, SQLiteAuthStoreError>] {
        await applySet(
            into: "sign_in_completions", columns: Self.signInCompletionColumns,
            rows: requests.map { request in
                [
                    .text(request.credential.id), .text(request.credential.userID), .integer(.init(request.credential.expiresAt)),
                    .integer(.init(request.time)), .text(request.factorID), .integer(.init(request.step)),
                    .integer(max(1, request.maximumSessionsPerUser)),
                ] + Self.sessionBinds(request.session) + Self.auditBinds(request.audit)
            }
        ) { outcome, detail, _ in SignInCompletion(storedOutcome: outcome, detail: detail) }
    }

    /// Counts `requests` together (``recordSignInFailure(credential:failureKey:at:limit:lockout:)``):
    /// one result each, in order; all fail together only when the statement does.
    func recordSignInFailures(_ requests: [SignInFailureBatch.Request]) async -> [Result<SignInFailure, SQLiteAuthStoreError>] {
        await applySet(
            into: "sign_in_failures", columns: Self.signInFailureColumns,
            rows: requests.map { request in
                [
                    .text(request.credential.id), .integer(.init(request.credential.expiresAt)), .integer(.init(request.time)),
                    .text(request.failureKey), .integer(request.limit), .integer(.init(request.lockout)),
                ] + Self.auditBinds(request.audit)
            }
        ) { outcome, detail, failures in SignInFailure(storedOutcome: outcome, detail: detail, failures: failures) }
    }

    /// Decides and applies a set of sign-in steps (`rows`, one per request, in the columns of
    /// `table` after `seq`) as one `INSERT` into `table`, whose trigger decides and applies each
    /// row before it is inserted and records its outcome in `sign_in_outcomes`, where the
    /// statement's `RETURNING` reads it: one result per row, in order; all fail together only when
    /// the statement does.
    ///
    /// One trip to the writer's thread, where deciding in Swift took four (`BEGIN`, a read of the
    /// rows, the writes, `COMMIT`): on a busy machine each trip waits for thread wake-ups, and
    /// those trips, not the work, were most of a set's time. A write statement in autocommit takes
    /// SQLite's write lock before it reads, as `BEGIN IMMEDIATE` does, so no other process writes
    /// between the checks and the writes; and it is atomic, so a set that fails writes nothing.
    private func applySet<Outcome: Sendable>(
        into table: String, columns: String, rows: [[SQLiteData]],
        outcome: (_ outcome: String, _ detail: Int64?, _ failures: Int64?) -> Outcome?
    ) async -> [Result<Outcome, SQLiteAuthStoreError>] {
        do throws(SQLiteAuthStoreError) {
            let binds = rows.enumerated().flatMap { seq, row in [SQLiteData.integer(seq)] + row }
            let recorded = try await autocommitted { () throws(SQLiteAuthStoreError) -> [SQLiteRow] in
                try await self.execute(
                    """
                    INSERT INTO \(table) (seq, \(columns)) VALUES \(Self.placeholders(rows.count, row: 1 + (rows.first?.count ?? 0)))
                    RETURNING seq, \(["outcome", "detail", "failures"].map { "(SELECT \($0) FROM sign_in_outcomes AS o WHERE o.seq = \(table).seq) AS \($0)" }.joined(separator: ", "))
                    """, binds)
            }
            var outcomes = [Outcome?](repeating: nil, count: rows.count)
            for row in recorded {
                let reader = RowReader(row: row)
                let seq = Int(try reader.integer("seq", of: "sign-in outcome"))
                let name = try reader.text("outcome")
                guard outcomes.indices.contains(seq) else { throw .database(path: path, message: "a sign-in outcome for no request (\(seq))") }
                guard
                    let decided = outcome(
                        name, try reader.optionalInteger("detail", of: "sign-in outcome"),
                        try reader.optionalInteger("failures", of: "sign-in outcome"))
                else { throw .database(path: path, message: "an unknown sign-in outcome \(name)") }
                outcomes[seq] = decided
            }
            return try outcomes.map { outcome throws(SQLiteAuthStoreError) in
                guard let outcome else { throw .database(path: path, message: "a sign-in step without an outcome") }
                return .success(outcome)
            }
        } catch {
            return rows.map { _ in .failure(error) }
        }
    }

    private static let signInCompletionColumns =
        "credential_id, credential_user_id, credential_expires_at, time, failure_key, step, session_cap, \(sessionColumns), \(auditColumns)"
    private static let signInFailureColumns = "credential_id, credential_expires_at, time, failure_key, failure_limit, lockout, \(auditColumns)"

    /// Creates ``signInWriteSchema`` on the connection; once, after the migrations.
    func createSignInWrites() async throws(SQLiteAuthStoreError) {
        for statement in Self.signInWriteSchema {
            try await execute(statement)
        }
    }

    /// Two tables that are only ever inserted into, each with a trigger that decides and applies
    /// a row before it goes in, so that a set of completions or of wrong codes is one statement
    /// (``applySet(into:columns:rows:outcome:)``), and the table of outcomes the triggers leave for
    /// that statement's `RETURNING`, which sees what the triggers that ran before its row wrote
    /// (and not what `AFTER` triggers write, hence `BEFORE`). Each trigger first deletes what an
    /// earlier set left under the row's `seq`, so the tables never hold more rows than the largest set.
    /// Temporary objects of the connection, made when it opens: nothing of them is in the file,
    /// so they need no migration and each process has its own. Rows apply in the order they are
    /// inserted, each seeing what the rows before it wrote, and one that fails fails the statement.
    ///
    /// The triggers are `completeSignIn`'s and `recordSignInFailure`'s rules
    /// (`SignInCompletionBatch` and `SignInFailureBatch`, which the PostgreSQL store applies in
    /// Swift) written again in SQL, deliberately: deciding in Swift needs the rows read first, in a
    /// transaction held open across more trips to the writer's thread. The shared conformance
    /// suite holds them to the same answers.
    static let signInWriteSchema = [
        "CREATE TEMP TABLE sign_in_outcomes (seq INTEGER PRIMARY KEY, outcome TEXT NOT NULL, detail INTEGER, failures INTEGER)",
        "CREATE TEMP TABLE sign_in_completions (seq INTEGER PRIMARY KEY, \(signInCompletionColumns))",
        // The checks in the order `completeSignIn` makes them (spent, expired, locked, the factor
        // and its owner, the step), then, for a completion, what `completeSignIn` alone writes:
        // the credential spent, the step recorded, the failures cleared, the session stored, and
        // the user's sessions beyond the cap ended, oldest first.
        """
        CREATE TEMP TRIGGER sign_in_completions_apply BEFORE INSERT ON sign_in_completions
        BEGIN
            DELETE FROM sign_in_completions WHERE seq = NEW.seq;
            DELETE FROM sign_in_outcomes WHERE seq = NEW.seq;
            INSERT INTO sign_in_outcomes (seq, outcome, detail)
            SELECT NEW.seq, outcome, CASE outcome
                WHEN 'credentialExpired' THEN NEW.credential_expires_at
                WHEN 'locked' THEN locked_until
                WHEN 'stepRejected' THEN last_accepted_step
            END
            FROM (
                SELECT CASE
                    \(pendingSignInRefusals)
                    WHEN factor.user_id IS NOT NEW.credential_user_id THEN 'factorNotFound'
                    WHEN factor.last_accepted_step >= NEW.step THEN 'stepRejected'
                    ELSE 'completed'
                END AS outcome, counter.locked_until, factor.last_accepted_step
                \(pendingSignInRows)
                LEFT JOIN factors AS factor ON factor.id = NEW.failure_key
            );
            INSERT INTO spent_sign_ins (expires_at, id)
            SELECT NEW.credential_expires_at, NEW.credential_id
            WHERE (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            UPDATE factors SET last_accepted_step = NEW.step
            WHERE id = NEW.failure_key AND (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            DELETE FROM failure_counters
            WHERE key = NEW.failure_key AND (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            INSERT INTO sessions (\(sessionColumns))
            SELECT NEW.id, NEW.user_id, NEW.first_factor_provider, NEW.authenticated_at, NEW.second_factor_enrollment_id,
                NEW.last_used_at, NEW.expires_at, NEW.session_claims
            WHERE (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed';
            DELETE FROM sessions
            WHERE (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = 'completed'
                AND user_id = NEW.user_id AND rowid NOT IN (
                    SELECT rowid FROM sessions WHERE user_id = NEW.user_id ORDER BY rowid DESC LIMIT NEW.session_cap
                );
            \(insertAudit(when: "completed"))
        END
        """,
        "CREATE TEMP TABLE sign_in_failures (seq INTEGER PRIMARY KEY, \(signInFailureColumns))",
        // The checks in the order `recordSignInFailure` makes them (spent, expired, locked), then,
        // for a counted failure, `FailureCounter.recordingFailure`: a lock that ended starts the
        // count again, and reaching the limit locks and starts it again from zero.
        """
        CREATE TEMP TRIGGER sign_in_failures_apply BEFORE INSERT ON sign_in_failures
        BEGIN
            DELETE FROM sign_in_failures WHERE seq = NEW.seq;
            DELETE FROM sign_in_outcomes WHERE seq = NEW.seq;
            INSERT INTO sign_in_outcomes (seq, outcome, detail, failures)
            SELECT NEW.seq, outcome,
                CASE
                    WHEN outcome = 'credentialExpired' THEN NEW.credential_expires_at
                    WHEN outcome = 'locked' THEN locked_until
                    WHEN outcome = 'counted' AND failures >= NEW.failure_limit THEN NEW.time + NEW.lockout
                END,
                CASE WHEN outcome = 'counted' THEN (CASE WHEN failures >= NEW.failure_limit THEN 0 ELSE failures END) END
            FROM (
                SELECT CASE
                    \(pendingSignInRefusals)
                    ELSE 'counted'
                END AS outcome, counter.locked_until,
                CASE WHEN counter.locked_until IS NOT NULL THEN 1 ELSE coalesce(counter.consecutive_failures, 0) + 1 END AS failures
                \(pendingSignInRows)
            );
            INSERT INTO failure_counters (key, consecutive_failures, locked_until, counted_at)
            SELECT NEW.failure_key, failures, detail, NEW.time FROM sign_in_outcomes WHERE seq = NEW.seq AND outcome = 'counted'
            ON CONFLICT (key) DO UPDATE SET
                consecutive_failures = excluded.consecutive_failures, locked_until = excluded.locked_until, counted_at = excluded.counted_at;
            \(insertAudit(when: "counted"))
        END
        """,
    ]

    /// The audit event a row carries (its `audit_` columns, all null for none), written when the
    /// row's outcome is `outcome`.
    private static func insertAudit(when outcome: String) -> String {
        let values = auditColumns.split(separator: ", ").map { "NEW.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO audit_events (\(StoredColumns.auditEventInsert)) SELECT \(values)
                        WHERE NEW.audit_kind IS NOT NULL AND (SELECT outcome FROM sign_in_outcomes WHERE seq = NEW.seq) = '\(outcome)';
            """
    }

    /// The refusals every use of a pending sign-in starts with, in `PendingSignInRecord.refusal`'s
    /// order, then the lock: `WHEN` clauses over ``pendingSignInRows``.
    private static let pendingSignInRefusals = """
        WHEN spent.id IS NOT NULL THEN 'credentialNotFound'
                    WHEN NEW.time > NEW.credential_expires_at THEN 'credentialExpired'
                    WHEN NEW.time < counter.locked_until THEN 'locked'
        """

    /// The row's credential, spent or not, and its failure counter, if any.
    private static let pendingSignInRows = """
        FROM (SELECT 1)
                LEFT JOIN spent_sign_ins AS spent ON spent.expires_at = NEW.credential_expires_at AND spent.id = NEW.credential_id
                LEFT JOIN failure_counters AS counter ON counter.key = NEW.failure_key
        """

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
            .integer(.init(record.lastUsedAt)), .integer(.init(record.expiresAt)), record.sessionClaims.map { .text($0) } ?? .null,
        ]
    }
}
