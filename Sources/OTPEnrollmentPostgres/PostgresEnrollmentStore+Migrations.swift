internal import OTPDurableStore
internal import PostgresNIO

internal import Glibc

extension PostgresEnrollmentStore {
    /// Every migration, in order. Append only.
    ///
    /// Integers are `bigint` (Unix seconds and steps are 64-bit), flags `boolean`, sealed values and
    /// digests `bytea`. Sessions carry `seq`, the order they were stored in, which the per-user cap
    /// ends oldest first.
    static let migrations: [Migration] = [
        Migration(
            version: 1,
            summary: "pending enrollments, factors, failure counters, pending sign-ins, sessions, recovery codes, store secrets, quotas",
            statements: [
                """
                CREATE TABLE pending_enrollments (
                    id text PRIMARY KEY,
                    user_id text NOT NULL,
                    sealed_secret bytea NOT NULL,
                    key_id text NOT NULL,
                    algorithm text NOT NULL,
                    digits bigint NOT NULL,
                    period bigint NOT NULL,
                    created_at bigint NOT NULL,
                    deadline bigint NOT NULL
                )
                """,
                "CREATE INDEX pending_enrollments_by_deadline ON pending_enrollments (deadline)",
                "CREATE INDEX pending_enrollments_by_key ON pending_enrollments (key_id)",
                """
                CREATE TABLE factors (
                    id text PRIMARY KEY,
                    user_id text NOT NULL,
                    factor_id text NOT NULL,
                    display_name text,
                    enrolled_at bigint NOT NULL,
                    sealed_secret bytea NOT NULL,
                    key_id text NOT NULL,
                    algorithm text NOT NULL,
                    digits bigint NOT NULL,
                    period bigint NOT NULL,
                    last_accepted_step bigint
                )
                """,
                "CREATE INDEX factors_by_user ON factors (user_id, enrolled_at, id)",
                "CREATE INDEX factors_by_key ON factors (key_id)",
                """
                CREATE TABLE failure_counters (
                    key text PRIMARY KEY,
                    consecutive_failures bigint NOT NULL,
                    locked_until bigint
                )
                """,
                """
                CREATE TABLE pending_sign_ins (
                    id text PRIMARY KEY,
                    user_id text NOT NULL,
                    first_factor_provider text NOT NULL,
                    created_at bigint NOT NULL,
                    expires_at bigint NOT NULL
                )
                """,
                "CREATE INDEX pending_sign_ins_by_expiry ON pending_sign_ins (expires_at)",
                """
                CREATE TABLE sessions (
                    seq bigint GENERATED ALWAYS AS IDENTITY,
                    id text PRIMARY KEY,
                    user_id text NOT NULL,
                    first_factor_provider text NOT NULL,
                    authenticated_at bigint NOT NULL,
                    second_factor_enrollment_id text,
                    last_used_at bigint NOT NULL,
                    expires_at bigint NOT NULL
                )
                """,
                "CREATE INDEX sessions_by_user ON sessions (user_id, seq)",
                "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
                """
                CREATE TABLE recovery_codes (
                    user_id text NOT NULL,
                    digest bytea NOT NULL,
                    PRIMARY KEY (user_id, digest)
                )
                """,
                """
                CREATE TABLE store_secrets (
                    id text PRIMARY KEY,
                    sealed_secret bytea NOT NULL,
                    key_id text NOT NULL
                )
                """,
                "CREATE INDEX store_secrets_by_key ON store_secrets (key_id)",
                """
                CREATE TABLE quotas (
                    key text PRIMARY KEY,
                    window_start bigint NOT NULL,
                    window_end bigint NOT NULL,
                    count bigint NOT NULL
                )
                """,
                "CREATE INDEX quotas_by_window_end ON quotas (window_end)",
            ]
        ),
        Migration(
            version: 2,
            summary: "phone factors, one per number and user, and the verifications of codes sent to them",
            statements: [
                """
                CREATE TABLE phone_factors (
                    id text PRIMARY KEY,
                    user_id text NOT NULL,
                    display_name text,
                    enrolled_at bigint NOT NULL,
                    phone_number text NOT NULL,
                    UNIQUE (user_id, phone_number)
                )
                """,
                "CREATE INDEX phone_factors_by_user ON phone_factors (user_id, enrolled_at, id)",
                """
                CREATE TABLE phone_verifications (
                    id text PRIMARY KEY,
                    purpose text NOT NULL,
                    user_id text NOT NULL,
                    enrollment_id text,
                    credential_id text,
                    phone_number text NOT NULL,
                    code_digest bytea NOT NULL,
                    created_at bigint NOT NULL,
                    expires_at bigint NOT NULL,
                    failed_attempts bigint NOT NULL
                )
                """,
                "CREATE INDEX phone_verifications_by_expiry ON phone_verifications (expires_at)",
            ]
        ),
        Migration(
            version: 3,
            summary: "accounts with unique email addresses; provider identities, each on one account, one per provider",
            statements: [
                """
                CREATE TABLE accounts (
                    id text PRIMARY KEY,
                    email text,
                    email_verified boolean NOT NULL,
                    display_name text,
                    photo_url text,
                    disabled boolean NOT NULL,
                    created_at bigint NOT NULL,
                    last_sign_in_at bigint,
                    password_hash text,
                    CONSTRAINT accounts_email_key UNIQUE (email)
                )
                """,
                """
                CREATE TABLE provider_identities (
                    provider_id text NOT NULL,
                    provider_uid text NOT NULL,
                    account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
                    email text,
                    display_name text,
                    phone_number text,
                    CONSTRAINT provider_identities_pkey PRIMARY KEY (provider_id, provider_uid),
                    CONSTRAINT provider_identities_account_provider_key UNIQUE (account_id, provider_id)
                )
                """,
            ]
        ),
        Migration(
            version: 4,
            summary: "accounts: the time before which their tokens are revoked (Firebase's validSince)",
            statements: ["ALTER TABLE accounts ADD COLUMN tokens_valid_after bigint"]
        ),
        Migration(
            version: 5,
            summary: "accounts: the custom claims an administrator set (Firebase's customAttributes)",
            statements: ["ALTER TABLE accounts ADD COLUMN custom_attributes text"]
        ),
        Migration(
            version: 6,
            summary: "pending sign-ins travel in their credentials: only the ids of the spent ones are kept, until they expire",
            statements: [
                "DROP TABLE pending_sign_ins",
                // Keyed by expiry first, so that spending appends near the end of the index and the
                // purge deletes a prefix; the credential gives both.
                "CREATE TABLE spent_sign_ins (expires_at bigint NOT NULL, id text NOT NULL, PRIMARY KEY (expires_at, id))",
            ]
        ),
        Migration(
            version: 7,
            summary: "sets of sign-in completions and of wrong codes decided and applied by the server, one call each",
            statements: [completeSignInsFunction, recordSignInFailuresFunction]
        ),
    ]

    /// `completeSignIn`'s rules for a set of completions, as ``SQLiteEnrollmentStore``'s trigger
    /// writes them for SQLite, in one call (``completeSignIns(_:)``): one round trip where deciding
    /// in Swift between the reads and the writes takes six to eight, each a wake-up of the service
    /// and of the server's backend.
    ///
    /// What the set reads to decide it is locked first, each kind in one order every set keeps,
    /// so that sets of several servers never wait for each other in a circle: the credentials
    /// claimed (inserted as spent; one another set holds waits for it), the factors (`FOR
    /// UPDATE`), the users' sessions (the advisory lock ``insertSession(_:maximumPerUser:)``
    /// takes). Then each request in turn, seeing what the ones before it wrote: the checks in
    /// `completeSignIn`'s order (spent, expired, locked, the factor and its owner, the step), and
    /// for a completion its writes (the step, the counter cleared, the session, the user's
    /// sessions beyond the cap ended, oldest first). Last, the claims no completion spent are
    /// released. One row per request: its index from zero, the outcome, and its detail (the
    /// expiry, the end of the lock, the last accepted step).
    ///
    /// A migration's text never changes: a change to these rules is a new migration that
    /// replaces the function (`CREATE OR REPLACE FUNCTION`).
    static let completeSignInsFunction = """
        CREATE FUNCTION otpkit_complete_sign_ins(
            credential_ids text[], credential_users text[], credential_expiries bigint[], request_times bigint[],
            factor_ids text[], request_steps bigint[], session_caps bigint[],
            session_ids text[], session_users text[], session_providers text[], session_authenticated_at bigint[],
            session_factors text[], session_has_factor boolean[], session_last_used_at bigint[], session_expiries bigint[]
        ) RETURNS TABLE (request integer, outcome text, detail bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            claimed text[];
            spent_here text[] := '{}';
            lock_end bigint;
            factor_user text;
            last_step bigint;
        BEGIN
            WITH claims AS (
                INSERT INTO spent_sign_ins (expires_at, id)
                SELECT DISTINCT c.expires_at, c.id FROM unnest(credential_expiries, credential_ids) AS c (expires_at, id)
                ORDER BY c.expires_at, c.id
                ON CONFLICT DO NOTHING RETURNING spent_sign_ins.id
            )
            SELECT coalesce(array_agg(claims.id), '{}') INTO claimed FROM claims;
            PERFORM 1 FROM factors WHERE factors.id = ANY(factor_ids) ORDER BY factors.id FOR UPDATE;
            PERFORM pg_advisory_xact_lock(\(Connection.LockNamespace.sessionsOfUser.rawValue), ordered.user_hash)
            FROM (SELECT DISTINCT hashtext(u.user_id) AS user_hash FROM unnest(session_users) AS u (user_id) ORDER BY 1) AS ordered;

            FOR i IN 1 .. coalesce(cardinality(credential_ids), 0) LOOP
                request := i - 1;
                detail := NULL;
                SELECT c.locked_until INTO lock_end FROM failure_counters AS c WHERE c.key = factor_ids[i];
                SELECT f.user_id, f.last_accepted_step INTO factor_user, last_step FROM factors AS f WHERE f.id = factor_ids[i];
                IF NOT credential_ids[i] = ANY(claimed) OR credential_ids[i] = ANY(spent_here) THEN
                    outcome := 'credentialNotFound';
                ELSIF request_times[i] > credential_expiries[i] THEN
                    outcome := 'credentialExpired';
                    detail := credential_expiries[i];
                ELSIF request_times[i] < lock_end THEN
                    outcome := 'locked';
                    detail := lock_end;
                ELSIF factor_user IS DISTINCT FROM credential_users[i] THEN
                    outcome := 'factorNotFound';
                ELSIF last_step >= request_steps[i] THEN
                    outcome := 'stepRejected';
                    detail := last_step;
                ELSE
                    outcome := 'completed';
                    spent_here := spent_here || credential_ids[i];
                    UPDATE factors SET last_accepted_step = request_steps[i] WHERE factors.id = factor_ids[i];
                    DELETE FROM failure_counters WHERE failure_counters.key = factor_ids[i];
                    INSERT INTO sessions (id, user_id, first_factor_provider, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at)
                    VALUES (
                        session_ids[i], session_users[i], session_providers[i], session_authenticated_at[i],
                        CASE WHEN session_has_factor[i] THEN session_factors[i] END, session_last_used_at[i], session_expiries[i]);
                    DELETE FROM sessions WHERE sessions.id IN (
                        SELECT s.id FROM sessions AS s WHERE s.user_id = session_users[i] ORDER BY s.seq DESC OFFSET session_caps[i]);
                END IF;
                RETURN NEXT;
            END LOOP;

            DELETE FROM spent_sign_ins AS s USING unnest(credential_expiries, credential_ids) AS c (expires_at, id)
            WHERE s.expires_at = c.expires_at AND s.id = c.id AND c.id = ANY(claimed) AND NOT c.id = ANY(spent_here);
        END
        $$
        """

    /// `recordSignInFailure`'s rules for a set of wrong codes, as ``SQLiteEnrollmentStore``'s
    /// trigger writes them for SQLite, in one call (``recordSignInFailures(_:)``), as
    /// ``completeSignInsFunction`` for completions: the credentials claimed (so that a wrong code
    /// and a completion of one credential take turns across servers) and released at the end; the
    /// counters inserted at zero where there are none, in key order, then locked by a statement of
    /// their own, which sees the ones another server inserted meanwhile; then each request in
    /// turn: the checks (spent, expired, locked), and for a wrong code
    /// `FailureCounter.recordingFailure` (a lock that ended starts the count again; reaching the
    /// limit locks, and the count starts again from zero). One row per request: its index from
    /// zero, the outcome, its detail (the expiry, the end of the lock), and the count.
    static let recordSignInFailuresFunction = """
        CREATE FUNCTION otpkit_record_sign_in_failures(
            credential_ids text[], credential_expiries bigint[], request_times bigint[],
            failure_keys text[], failure_limits bigint[], lockouts bigint[]
        ) RETURNS TABLE (request integer, outcome text, detail bigint, failures bigint)
        LANGUAGE plpgsql AS $$
        DECLARE
            claimed text[];
            lock_end bigint;
        BEGIN
            WITH claims AS (
                INSERT INTO spent_sign_ins (expires_at, id)
                SELECT DISTINCT c.expires_at, c.id FROM unnest(credential_expiries, credential_ids) AS c (expires_at, id)
                ORDER BY c.expires_at, c.id
                ON CONFLICT DO NOTHING RETURNING spent_sign_ins.id
            )
            SELECT coalesce(array_agg(claims.id), '{}') INTO claimed FROM claims;
            INSERT INTO failure_counters (key, consecutive_failures, locked_until)
            SELECT DISTINCT k.key, 0::bigint, NULL::bigint FROM unnest(failure_keys) AS k (key) ORDER BY k.key
            ON CONFLICT (key) DO NOTHING;
            PERFORM 1 FROM failure_counters AS c WHERE c.key = ANY(failure_keys) ORDER BY c.key FOR UPDATE;

            FOR i IN 1 .. coalesce(cardinality(credential_ids), 0) LOOP
                request := i - 1;
                detail := NULL;
                failures := NULL;
                IF NOT credential_ids[i] = ANY(claimed) THEN
                    outcome := 'credentialNotFound';
                ELSIF request_times[i] > credential_expiries[i] THEN
                    outcome := 'credentialExpired';
                    detail := credential_expiries[i];
                ELSE
                    SELECT c.consecutive_failures, c.locked_until INTO failures, lock_end FROM failure_counters AS c WHERE c.key = failure_keys[i];
                    IF request_times[i] < lock_end THEN
                        outcome := 'locked';
                        detail := lock_end;
                        failures := NULL;
                    ELSE
                        outcome := 'counted';
                        failures := CASE WHEN lock_end IS NULL THEN coalesce(failures, 0) ELSE 0 END + 1;
                        IF failures >= failure_limits[i] THEN
                            failures := 0;
                            detail := request_times[i] + lockouts[i];
                        END IF;
                        -- An upsert: a completion elsewhere may have deleted the counter since it was inserted.
                        INSERT INTO failure_counters AS c (key, consecutive_failures, locked_until)
                        VALUES (failure_keys[i], failures, detail)
                        ON CONFLICT (key) DO UPDATE SET consecutive_failures = excluded.consecutive_failures, locked_until = excluded.locked_until;
                    END IF;
                END IF;
                RETURN NEXT;
            END LOOP;

            DELETE FROM spent_sign_ins AS s USING unnest(credential_expiries, credential_ids) AS c (expires_at, id)
            WHERE s.expires_at = c.expires_at AND s.id = c.id AND c.id = ANY(claimed);
        END
        $$
        """

    /// The key of the advisory lock migrations run under: "OTPK" and "MIGR" as one 64-bit number,
    /// so that no other application's lock is likely to collide with it.
    static let migrationLockKey: Int64 = 0x4F54_504B_4D49_4752

    /// Brings the schema up to date in one transaction under a transaction-scoped advisory lock:
    /// servers starting at once take turns, and the later ones find the migrations applied. A
    /// failed migration rolls back whole.
    func migrate() async throws(PostgresEnrollmentStoreError) {
        try await transaction("migrating the schema", retry: .always) { connection in
            try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
            try await MigrationRecord(connection: connection).migrate(to: Self.migrations)
        }
    }

    /// The table `otpkit_migrations`, for OTPDurableStore's migration rules. Its methods run in
    /// the caller's transaction.
    struct MigrationRecord: MigrationTarget {
        let connection: Connection

        var store: PostgresEnrollmentStore { connection.store }

        func appliedMigrations() async throws(PostgresEnrollmentStoreError) -> [(version: Int, checksum: String)] {
            try await run("reading the applied migrations") {
                try await connection.execute(
                    """
                    CREATE TABLE IF NOT EXISTS otpkit_migrations (
                        version bigint PRIMARY KEY,
                        summary text NOT NULL,
                        checksum text NOT NULL,
                        applied_at bigint NOT NULL
                    )
                    """)
                var applied: [(version: Int, checksum: String)] = []
                for row in try await connection.query("SELECT version, checksum FROM otpkit_migrations ORDER BY version") {
                    let reader = PostgresStoredRow(row: row)
                    applied.append((Int(try reader.integer("version", of: "migration")), try reader.text("checksum", of: "migration")))
                }
                return applied
            }
        }

        func apply(_ migration: Migration) async throws(PostgresEnrollmentStoreError) {
            try await run("applying migration \(migration.version)") {
                for statement in migration.statements {
                    try await connection.execute(PostgresQuery(unsafeSQL: statement))
                }
                try await connection.execute(
                    """
                    INSERT INTO otpkit_migrations (version, summary, checksum, applied_at)
                    VALUES (\(Int64(migration.version)), \(migration.summary), \(migration.checksum), \(Int64(time(nil))))
                    """)
            }
        }

        func schemaTooNew(version: Int, supported: Int) -> PostgresEnrollmentStoreError {
            .schemaTooNew(server: store.server, version: version, supported: supported)
        }

        func migrationChanged(version: Int) -> PostgresEnrollmentStoreError {
            .migrationChanged(server: store.server, version: version)
        }

        /// Runs `body`, reporting the driver's errors as the store's.
        private func run<Result>(_ operation: String, _ body: () async throws -> Result) async throws(PostgresEnrollmentStoreError) -> Result {
            do {
                return try await body()
            } catch {
                throw store.classify(error, operation: operation).error
            }
        }
    }
}
