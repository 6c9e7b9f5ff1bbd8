internal import OTPDurableStore
internal import OTPEnrollment
internal import PostgresNIO

/// The two writes of every sign-in, in sets.
///
/// Each statement is a round trip to the server, and PostgreSQL spends about as long on a small
/// statement as on the same statement over many rows: concurrent sign-ins therefore go through
/// `OperationBatcher`s, and a batch's reads and writes are each one statement over all of its
/// sign-ins (arrays through `unnest` and `= ANY`), in one transaction. What a batch reads to
/// decide it locks (`FOR UPDATE`, in id order, so that two servers completing overlapping batches
/// never wait for each other in a circle), so the decision holds under `READ COMMITTED` with any
/// number of servers.
extension PostgresEnrollmentStore {
    /// Starts `requests` together (``factorsStartingSignIn(_:)``): one result each, in order; all
    /// fail together only when the transaction does.
    func startSignIns(_ requests: [PendingSignInRecord]) async -> [Result<SignInFactors, PostgresEnrollmentStoreError>] {
        let sealer = self.sealer
        let users = SignInStartBatch.users(of: requests)
        var binds = PostgresBindings()
        binds.append(users)
        binds.append(requests.map(\.id))
        binds.append(requests.map(\.userID))
        binds.append(requests.map(\.firstFactorProvider))
        binds.append(requests.map(\.createdAt))
        binds.append(requests.map(\.expiresAt))
        let query = PostgresQuery(unsafeSQL: Self.startSignInsQuery, binds: binds)
        do throws(PostgresEnrollmentStoreError) {
            let rows = try await transaction("starting sign-ins") { connection in try await connection.query(query) }
            var totp: [FactorRecord] = []
            var phone: [PhoneFactorRecord] = []
            for row in rows {
                let stored = PostgresStoredRow(row: row)
                if try stored.text("kind", of: "a sign-in's factor") == "factor" {
                    totp.append(try stored.factorRecord(sealer))
                } else {
                    phone.append(try stored.phoneFactorRecord())
                }
            }
            return SignInStartBatch(requests, totp: totp, phone: phone).factors.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }

    /// The factors of the users `$1`, both kinds tagged as in ``pendingSignInContextQuery``, and
    /// the credentials `$2`…`$6` (one array per column) stored for those of them who have any: the
    /// rule of `SignInStartBatch`, in one statement, so a set of first steps is one round trip
    /// between its `BEGIN` and its `COMMIT`.
    static let startSignInsQuery: String = {
        let factors = StoredColumns.taggedUnion(
            [
                .init(kind: "factor", columns: StoredColumns.factor, from: "totp"),
                .init(kind: "phone", columns: StoredColumns.phoneFactor, from: "phone"),
            ], orderedBy: "kind, enrolled_at, id", null: PostgresEnrollmentStore.typedNull)
        return """
            WITH totp AS (SELECT \(StoredColumns.factor) FROM factors WHERE user_id = ANY($1)),
                phone AS (SELECT \(StoredColumns.phoneFactor) FROM phone_factors WHERE user_id = ANY($1)),
                stored AS (
                    INSERT INTO pending_sign_ins (\(StoredColumns.pendingSignIn))
                    SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::int8[], $6::int8[])
                        AS credential (\(StoredColumns.pendingSignIn))
                    WHERE credential.user_id IN (SELECT user_id FROM totp UNION ALL SELECT user_id FROM phone)
                )
            \(factors)
            """
    }()

    /// Completes `requests` together (``completeSignIn(credentialID:factorID:step:at:session:maximumSessionsPerUser:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func completeSignIns(_ requests: [SignInCompletionBatch.Request]) async -> [Result<SignInCompletion, PostgresEnrollmentStoreError>] {
        do throws(PostgresEnrollmentStoreError) {
            let batch = try await transaction("completing sign-ins") { connection -> SignInCompletionBatch in
                let batch = SignInCompletionBatch(requests, rows: try await connection.signInCompletionRows(requests))
                try await connection.write(batch)
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }
}

extension PostgresEnrollmentStore {
    /// Counts `requests` together (``recordSignInFailure(credentialID:userID:failureKey:at:limit:lockout:)``):
    /// one result each, in order; all fail together only when the transaction does.
    func recordSignInFailures(_ requests: [SignInFailureBatch.Request]) async -> [Result<SignInFailure, PostgresEnrollmentStoreError>] {
        do throws(PostgresEnrollmentStoreError) {
            let batch = try await transaction("counting wrong codes") { connection -> SignInFailureBatch in
                let batch = SignInFailureBatch(requests, rows: try await connection.signInFailureRows(requests))
                try await connection.write(batch)
                return batch
            }
            return batch.outcomes.map { .success($0) }
        } catch {
            return requests.map { _ in .failure(error) }
        }
    }
}

extension PostgresEnrollmentStore.Connection {
    /// The credentials and failure counters `requests` name, locked until the transaction ends.
    ///
    /// A counter is computed here and written back, so it must be locked, and a row that does not
    /// exist yet cannot be: the missing ones are first inserted at zero (in key order, so that two
    /// sets inserting the same keys wait for each other in one direction only), and the read that
    /// follows, a statement of its own and so a later snapshot, locks every counter, including
    /// one another server inserted meanwhile. The credentials are locked before the counters, as
    /// completions lock them before their factors.
    fileprivate func signInFailureRows(_ requests: [SignInFailureBatch.Request]) async throws -> SignInFailureBatch.Rows {
        let (credentialIDs, failureKeys) = SignInFailureBatch.keys(of: requests)
        try await execute(
            """
            INSERT INTO failure_counters (key, consecutive_failures, locked_until)
            SELECT key, 0, NULL FROM unnest(\(failureKeys)::text[]) AS key ORDER BY key
            ON CONFLICT (key) DO NOTHING
            """)
        let tagged = try await query(
            """
            WITH locked_credentials AS (
                SELECT \(unescaped: StoredColumns.pendingSignIn) FROM pending_sign_ins WHERE id = ANY(\(credentialIDs)) ORDER BY id FOR UPDATE
            ), locked_counters AS (
                SELECT key, consecutive_failures, locked_until FROM failure_counters WHERE key = ANY(\(failureKeys)) ORDER BY key FOR UPDATE
            )
            SELECT 'credential' AS kind, id, user_id, first_factor_provider, created_at, expires_at,
                   NULL::bigint AS consecutive_failures, NULL::bigint AS locked_until
            FROM locked_credentials
            UNION ALL
            SELECT 'counter', key, NULL, NULL, NULL, NULL, consecutive_failures, locked_until FROM locked_counters
            """)
        var rows = SignInFailureBatch.Rows()
        for row in tagged {
            let stored = PostgresStoredRow(row: row)
            if try stored.text("kind", of: "?") == "credential" {
                let record = try stored.pendingSignInRecord()
                rows.credentials[record.id] = record
            } else {
                let key = try stored.text("id", of: "?")
                rows.failures[key] = try stored.failureCounter(key: key)
            }
        }
        return rows
    }

    /// What `batch` decided to write, as one statement of data-modifying CTEs. postgres-nio binds
    /// no array of optionals: whether a counter is locked goes beside the (then zero) time.
    fileprivate func write(_ batch: SignInFailureBatch) async throws {
        let counters = batch.counters
        try await execute(
            """
            WITH expired AS (
                DELETE FROM pending_sign_ins WHERE id = ANY(\(batch.deletedCredentials))
            ), counted AS (
                UPDATE failure_counters AS c
                SET consecutive_failures = counter.failures, locked_until = CASE WHEN counter.is_locked THEN counter.until END
                FROM unnest(
                    \(counters.map(\.key))::text[], \(counters.map { Int64($0.counter.consecutiveFailures) })::int8[],
                    \(counters.map { $0.counter.lockedUntil != nil })::bool[], \(counters.map { $0.counter.lockedUntil ?? 0 })::int8[]
                ) AS counter (key, failures, is_locked, until)
                WHERE c.key = counter.key
            )
            SELECT 1
            """)
    }

    /// The credentials, failure counters and factors `requests` name, the credentials and factors
    /// locked until the transaction ends: one statement, each row tagged with its kind, since every
    /// statement is a round trip. The credentials are locked before the factors, each in id order
    /// (the branches of a `UNION ALL` run in turn), as every set locks them.
    fileprivate func signInCompletionRows(_ requests: [SignInCompletionBatch.Request]) async throws -> SignInCompletionBatch.Rows {
        let (credentialIDs, factorIDs) = SignInCompletionBatch.keys(of: requests)
        let tagged = try await query(
            """
            WITH locked_credentials AS (
                SELECT \(unescaped: StoredColumns.pendingSignIn) FROM pending_sign_ins WHERE id = ANY(\(credentialIDs)) ORDER BY id FOR UPDATE
            ), locked_factors AS (
                SELECT id, user_id, last_accepted_step FROM factors WHERE id = ANY(\(factorIDs)) ORDER BY id FOR UPDATE
            )
            SELECT 'credential' AS kind, id, user_id, first_factor_provider, created_at, expires_at,
                   NULL::bigint AS consecutive_failures, NULL::bigint AS locked_until, NULL::bigint AS last_accepted_step
            FROM locked_credentials
            UNION ALL
            SELECT 'factor', id, user_id, NULL, NULL, NULL, NULL, NULL, last_accepted_step FROM locked_factors
            UNION ALL
            SELECT 'counter', key, NULL, NULL, NULL, NULL, consecutive_failures, locked_until, NULL
            FROM failure_counters WHERE key = ANY(\(factorIDs))
            """)
        var rows = SignInCompletionBatch.Rows()
        for row in tagged {
            let stored = PostgresStoredRow(row: row)
            switch try stored.text("kind", of: "?") {
            case "credential":
                let record = try stored.pendingSignInRecord()
                rows.credentials[record.id] = record
            case "factor":
                let (id, factor) = try stored.completionFactor()
                rows.factors[id] = factor
            default:
                let key = try stored.text("id", of: "?")
                rows.failures[key] = try stored.failureCounter(key: key)
            }
        }
        return rows
    }

    /// What `batch` decided to write. The credentials, steps and failure counters are one statement
    /// of data-modifying CTEs, which PostgreSQL runs once each; each has a table of its own, so
    /// their order does not matter.
    fileprivate func write(_ batch: SignInCompletionBatch) async throws {
        let deleted = batch.deletedCredentials
        let steps = batch.acceptedSteps
        if !deleted.isEmpty || !steps.isEmpty {
            try await execute(
                """
                WITH consumed AS (
                    DELETE FROM pending_sign_ins WHERE id = ANY(\(deleted))
                ), accepted AS (
                    UPDATE factors AS f SET last_accepted_step = step.value
                    FROM unnest(\(steps.map(\.factorID))::text[], \(steps.map(\.step))::int8[]) AS step (id, value)
                    WHERE f.id = step.id
                ), cleared AS (
                    DELETE FROM failure_counters WHERE key = ANY(\(batch.clearedFailures))
                )
                SELECT 1
                """)
        }
        let sessions = batch.sessions
        guard !sessions.isEmpty else { return }
        try await lockSessions(of: Array(batch.sessionCaps.keys))
        // postgres-nio binds no array of optionals: whether a session has a second factor goes
        // beside the (then empty) id.
        try await execute(
            """
            INSERT INTO sessions (\(unescaped: StoredColumns.session))
            SELECT id, user_id, provider, authenticated_at, CASE WHEN has_factor THEN factor END, last_used_at, expires_at
            FROM unnest(
                \(sessions.map(\.id))::text[], \(sessions.map(\.userID))::text[], \(sessions.map(\.firstFactorProvider))::text[],
                \(sessions.map(\.authenticatedAt))::int8[], \(sessions.map { $0.secondFactorEnrollmentID ?? "" })::text[],
                \(sessions.map { $0.secondFactorEnrollmentID != nil })::bool[], \(sessions.map(\.lastUsedAt))::int8[],
                \(sessions.map(\.expiresAt))::int8[]
            ) WITH ORDINALITY AS s (id, user_id, provider, authenticated_at, factor, has_factor, last_used_at, expires_at, position)
            ORDER BY position
            """)
        // Each user keeps the newest sessions up to the cap.
        for (cap, users) in batch.usersByCap {
            try await execute(
                """
                DELETE FROM sessions WHERE id IN (
                    SELECT id FROM (
                        SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY seq DESC) AS newer
                        FROM sessions WHERE user_id = ANY(\(users))
                    ) AS ranked WHERE newer > \(Int64(cap))
                )
                """)
        }
    }
}
