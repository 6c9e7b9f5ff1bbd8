internal import OTPDurableStore
internal import OTPEnrollment
internal import SQLiteNIO

/// The two writes of every sign-in, in sets.
///
/// sqlite-nio runs each statement as a trip to the connection's thread and back, and that trip,
/// not the commit, is what a sign-in spends most of its time on once group commit shares the
/// `fsync`. Concurrent first steps and completions therefore go through one `OperationBatcher`:
/// a set's reads are one statement per kind of row over all of its sign-ins, and its writes one
/// statement in all, in one write of the shared transaction, so a set of many sign-ins costs about
/// as many trips as one did.
extension SQLiteEnrollmentStore {
    /// Runs `steps` together: one result each, in order; all fail together only when the
    /// transaction does. First steps are decided as if they ran before the completions, which
    /// they may have: a completion's credential comes from a first step that has committed.
    func runSignIns(_ steps: [SignInStep]) async -> [Result<SignInStep.Outcome, SQLiteEnrollmentStoreError>] {
        var starts: [PendingSignInRecord] = []
        var completions: [SignInCompletionBatch.Request] = []
        for step in steps {
            switch step {
            case .start(let credential): starts.append(credential)
            case .completion(let request): completions.append(request)
            }
        }
        do throws(SQLiteEnrollmentStoreError) {
            let (started, completed) = try await transaction {
                () throws(SQLiteEnrollmentStoreError) -> (SignInStartBatch?, SignInCompletionBatch?) in
                let started = starts.isEmpty ? nil : try await self.startBatch(starts)
                let completed =
                    completions.isEmpty ? nil : SignInCompletionBatch(completions, rows: try await self.signInCompletionRows(completions))
                try await self.write(starting: started?.credentials ?? [], completing: completed)
                return (started, completed)
            }
            var factors = (started?.factors ?? []).makeIterator()
            var outcomes = (completed?.outcomes ?? []).makeIterator()
            return steps.map { step in
                switch step {
                case .start: factors.next().map { .success(.started($0)) } ?? .failure(Self.mismatchedSignInOutcome(path: path))
                case .completion: outcomes.next().map { .success(.completed($0)) } ?? .failure(Self.mismatchedSignInOutcome(path: path))
                }
            }
        } catch {
            return steps.map { _ in .failure(error) }
        }
    }

    /// The error for a set that answered a step with another kind of outcome, or none: a defect
    /// of this module, reported rather than trapped.
    static func mismatchedSignInOutcome(path: String) -> SQLiteEnrollmentStoreError {
        .database(path: path, message: "a set of sign-ins answered a step out of turn (a defect of OTPKit: please report it)")
    }

    /// The factors of the users of `requests`, decided. The caller holds a transaction.
    private func startBatch(_ requests: [PendingSignInRecord]) async throws(SQLiteEnrollmentStoreError) -> SignInStartBatch {
        let users = SignInStartBatch.users(of: requests)
        let userBinds = users.map { SQLiteData.text($0) }
        let totp = try await execute(
            "SELECT \(Self.factorColumns) FROM factors WHERE user_id IN (\(Self.placeholders(users.count))) ORDER BY enrolled_at, id",
            userBinds)
        let phone = try await execute(
            """
            SELECT \(Self.phoneFactorColumns) FROM phone_factors WHERE user_id IN (\(Self.placeholders(users.count)))
            ORDER BY enrolled_at, id
            """,
            userBinds)
        return SignInStartBatch(
            requests, totp: try factorRecords(totp),
            phone: try phone.map { row throws(SQLiteEnrollmentStoreError) in try self.phoneFactorRecord(row) })
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

    /// The pending credentials of first steps, and what a set of completions decided to write, as
    /// one statement: rows inserted into `sign_in_writes`, whose triggers apply each
    /// (``signInWriteSchema``). The caller holds a transaction.
    private func write(starting credentials: [PendingSignInRecord], completing batch: SignInCompletionBatch?) async throws(SQLiteEnrollmentStoreError)
    {
        var rows = credentials.map(Self.signInWrite(pending:))
        guard let batch else {
            if !rows.isEmpty { try await insertSignInWrites(rows) }
            return
        }
        rows += batch.deletedCredentials.map { Self.signInWrite("credential", id: $0) }
        rows += batch.acceptedSteps.map { Self.signInWrite("step", id: $0.factorID, step: $0.step) }
        rows += batch.clearedFailures.map { Self.signInWrite("failure", id: $0) }
        rows += batch.sessions.map { Self.signInWrite("session", session: $0) }
        // After every session of the set: each user keeps the newest sessions up to the cap.
        rows += batch.sessionCaps.map { Self.signInWrite("trim", userID: $0.key, cap: $0.value) }
        if !rows.isEmpty { try await insertSignInWrites(rows) }
    }

    private func insertSignInWrites(_ rows: [[SQLiteData]]) async throws(SQLiteEnrollmentStoreError) {
        try await execute(
            "INSERT INTO sign_in_writes (\(Self.signInWriteColumns)) VALUES \(Self.placeholders(rows.count, row: 11))",
            rows.flatMap { $0 })
    }

    private static let signInWriteColumns =
        "kind, id, user_id, first_factor_provider, created_at, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at, step, session_cap"

    /// The row of `sign_in_writes` that stores a first step's pending credential.
    private static func signInWrite(pending credential: PendingSignInRecord) -> [SQLiteData] {
        [
            .text("pending"), .text(credential.id), .text(credential.userID), .text(credential.firstFactorProvider),
            .integer(.init(credential.createdAt)), .null, .null, .null, .integer(.init(credential.expiresAt)), .null, .null,
        ]
    }

    /// One row of `sign_in_writes`: what kind of write, and the columns that kind reads.
    private static func signInWrite(
        _ kind: String, id: String? = nil, userID: String? = nil, step: Int64? = nil, session: SessionRecord? = nil, cap: Int? = nil
    ) -> [SQLiteData] {
        if let session {
            return [
                .text(kind), .text(session.id), .text(session.userID), .text(session.firstFactorProvider), .null,
                .integer(.init(session.authenticatedAt)), session.secondFactorEnrollmentID.map { .text($0) } ?? .null,
                .integer(.init(session.lastUsedAt)), .integer(.init(session.expiresAt)), .null, .null,
            ]
        }
        return [
            .text(kind), id.map { .text($0) } ?? .null, userID.map { .text($0) } ?? .null, .null, .null, .null, .null, .null, .null,
            step.map { .integer(.init($0)) } ?? .null, cap.map { .integer($0) } ?? .null,
        ]
    }

    /// Creates ``signInWriteSchema`` on the connection; once, after the migrations.
    func createSignInWrites() async throws(SQLiteEnrollmentStoreError) {
        for statement in Self.signInWriteSchema {
            try await execute(statement)
        }
    }

    /// A view that is only ever inserted into, and one trigger per kind of row, so that a set's
    /// writes (pending credentials stored, credentials consumed or expired, steps accepted, failure counters cleared, sessions
    /// started and trimmed) take one trip to the connection's thread instead of one per statement:
    /// sqlite-nio prepares and runs one statement per trip, and on a busy machine the trips, not
    /// the writes, are what a set waits for. Temporary objects of the connection, made when it
    /// opens: nothing of them is in the file, so they need no migration and each process has its
    /// own. Rows apply in the order they are inserted, and one that fails fails the statement.
    static let signInWriteSchema = [
        """
        CREATE TEMP VIEW sign_in_writes (\(signInWriteColumns))
        AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_pending INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'pending'
        BEGIN
            INSERT INTO pending_sign_ins (\(pendingSignInColumns))
            VALUES (NEW.id, NEW.user_id, NEW.first_factor_provider, NEW.created_at, NEW.expires_at);
        END
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_credential INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'credential'
        BEGIN DELETE FROM pending_sign_ins WHERE id = NEW.id; END
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_step INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'step'
        BEGIN UPDATE factors SET last_accepted_step = NEW.step WHERE id = NEW.id; END
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_failure INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'failure'
        BEGIN DELETE FROM failure_counters WHERE key = NEW.id; END
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_session INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'session'
        BEGIN
            INSERT INTO sessions (\(sessionColumns))
            VALUES (NEW.id, NEW.user_id, NEW.first_factor_provider, NEW.authenticated_at, NEW.second_factor_enrollment_id,
                    NEW.last_used_at, NEW.expires_at);
        END
        """,
        """
        CREATE TEMP TRIGGER sign_in_writes_trim INSTEAD OF INSERT ON sign_in_writes WHEN NEW.kind = 'trim'
        BEGIN
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
