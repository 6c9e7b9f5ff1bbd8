internal import OTPDurableStore
internal import PostgresNIO

internal import Glibc

extension PostgresAuthStore {
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
            summary: "factors and failure counters leave room in their pages for the updates of sign-ins",
            statements: [
                "ALTER TABLE factors SET (fillfactor = 50)",
                "ALTER TABLE failure_counters SET (fillfactor = 50)",
            ]
        ),
        Migration(
            version: 8,
            summary: "the statements of sign-in sets as functions, whose plans each connection keeps",
            statements: [
                // The claims, locks and reads of a set of completions (signInCompletionRows): $1 and $2 the
                // credentials (expiring at, ids), $3 the factors, $4 the users whose session locks are
                // taken. UNION ALL runs its parts in order: claims, factor locks, session locks, counters.
                // 1330925651 is LockNamespace.sessionsOfUser, the lock single session inserts take.
                """
                CREATE FUNCTION otpkit_sign_in_completion_rows(int8[], text[], text[], text[])
                RETURNS TABLE (
                    kind text, id text, user_id text, consecutive_failures bigint, locked_until bigint, last_accepted_step bigint
                ) LANGUAGE plpgsql AS $$
                #variable_conflict use_column
                BEGIN
                    RETURN QUERY
                    WITH \(claimsOfMigration8), locked_factors AS (
                        SELECT id, user_id, last_accepted_step FROM factors WHERE id = ANY($3) ORDER BY id FOR UPDATE
                    ), locked_sessions AS (
                        SELECT pg_advisory_xact_lock(1330925651, user_hash)
                        FROM (SELECT DISTINCT hashtext(u.user_id) AS user_hash FROM unnest($4) AS u (user_id) ORDER BY user_hash) AS ordered
                    )
                    SELECT 'claimed', claimed.id, NULL, NULL::bigint, NULL::bigint, NULL::bigint FROM claimed
                    UNION ALL
                    SELECT 'factor', f.id, f.user_id, NULL, NULL, f.last_accepted_step FROM locked_factors AS f
                    UNION ALL
                    SELECT 'sessions locked', NULL, NULL, count(*), NULL, NULL FROM locked_sessions
                    UNION ALL
                    SELECT 'counter', c.key, NULL, c.consecutive_failures, c.locked_until, NULL FROM failure_counters AS c WHERE c.key = ANY($3);
                END $$
                """,
                // The writes a set of completions decided (SignInCompletionBatch): $1 and $2 the
                // credentials to release, $3 and $4 the accepted steps, $5 the failure counters to
                // clear, $6 to $13 the sessions to store, $14 and $15 how many of each user's stored
                // sessions stay (the newest; the rest end, found from the newest entry of the user's
                // index by a lateral join, which the planner cannot turn into a scan of the table).
                """
                CREATE FUNCTION otpkit_complete_sign_ins(
                    int8[], text[], text[], int8[], text[], text[], text[], text[], int8[], text[], bool[], int8[], int8[], text[], int8[]
                ) RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                    WITH released AS (
                        DELETE FROM spent_sign_ins WHERE (expires_at, id) IN (SELECT * FROM unnest($1, $2))
                    ), accepted AS (
                        UPDATE factors AS f SET last_accepted_step = step.value
                        FROM unnest($3, $4) AS step (id, value)
                        WHERE f.id = step.id
                    ), cleared AS (
                        DELETE FROM failure_counters WHERE key = ANY($5)
                    ), inserted AS (
                        INSERT INTO sessions (
                            id, user_id, first_factor_provider, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at
                        )
                        SELECT id, user_id, provider, authenticated_at, CASE WHEN has_factor THEN factor END, last_used_at, expires_at
                        FROM unnest($6, $7, $8, $9, $10, $11, $12, $13)
                            WITH ORDINALITY AS s (id, user_id, provider, authenticated_at, factor, has_factor, last_used_at, expires_at, position)
                        ORDER BY position
                    )
                    DELETE FROM sessions WHERE id = ANY(ARRAY(
                        SELECT ended.id
                        FROM unnest($14, $15) AS cap (user_id, kept)
                        CROSS JOIN LATERAL (
                            SELECT id FROM sessions
                            WHERE user_id = cap.user_id
                                AND seq <= (SELECT seq FROM sessions WHERE user_id = cap.user_id ORDER BY seq DESC OFFSET cap.kept LIMIT 1)
                        ) AS ended
                    ));
                END $$
                """,
                // The claims of a set of wrong codes ($1 and $2, as above) and its failure counters ($3),
                // each inserted at zero or "updated" to itself, which locks it and returns its newest
                // committed value.
                """
                CREATE FUNCTION otpkit_sign_in_failure_rows(int8[], text[], text[])
                RETURNS TABLE (kind text, key text, consecutive_failures bigint, locked_until bigint) LANGUAGE plpgsql AS $$
                #variable_conflict use_column
                BEGIN
                    RETURN QUERY
                    WITH \(claimsOfMigration8), counters AS (
                        INSERT INTO failure_counters (key, consecutive_failures, locked_until)
                        SELECT k, 0, NULL FROM unnest($3) AS k ORDER BY k
                        ON CONFLICT (key) DO UPDATE SET key = excluded.key
                        RETURNING failure_counters.key, failure_counters.consecutive_failures, failure_counters.locked_until
                    )
                    SELECT 'claimed', claimed.id, NULL::bigint, NULL::bigint FROM claimed
                    UNION ALL
                    SELECT 'counter', c.key, c.consecutive_failures, c.locked_until FROM counters AS c;
                END $$
                """,
                // The writes a set of wrong codes decided (SignInFailureBatch): $1 and $2 the credentials
                // to release, $3 to $6 the counters (key, failures, whether locked, until when).
                """
                CREATE FUNCTION otpkit_count_sign_in_failures(int8[], text[], text[], int8[], bool[], int8[])
                RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                    WITH released AS (
                        DELETE FROM spent_sign_ins WHERE (expires_at, id) IN (SELECT * FROM unnest($1, $2))
                    )
                    UPDATE failure_counters AS c
                    SET consecutive_failures = counter.failures, locked_until = CASE WHEN counter.is_locked THEN counter.until END
                    FROM unnest($3, $4, $5, $6) AS counter (key, failures, is_locked, until)
                    WHERE c.key = counter.key;
                END $$
                """,
            ]
        ),
        Migration(
            version: 9,
            summary:
                "quotas as token buckets (the counts of fixed windows start again); failure counters remember when they counted; the sources accounts signed in from",
            statements: [
                "DROP TABLE quotas",
                "CREATE TABLE quota_buckets (key text PRIMARY KEY, drained_at bigint NOT NULL)",
                "CREATE INDEX quota_buckets_by_drain ON quota_buckets (drained_at)",
                "ALTER TABLE failure_counters ADD COLUMN counted_at bigint NOT NULL DEFAULT 0",
                "UPDATE failure_counters SET counted_at = extract(epoch FROM now())::bigint",
                """
                CREATE TABLE sign_in_sources (
                    user_id text NOT NULL,
                    source text NOT NULL,
                    expires_at bigint NOT NULL,
                    PRIMARY KEY (user_id, source)
                )
                """,
                "CREATE INDEX sign_in_sources_by_expiry ON sign_in_sources (expires_at)",
                // Migration 8's otpkit_count_sign_in_failures with $7, when each counter counted;
                // the old function stays for servers of the previous version sharing the database.
                """
                CREATE FUNCTION otpkit_count_sign_in_failures_at(int8[], text[], text[], int8[], bool[], int8[], int8[])
                RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                    WITH released AS (
                        DELETE FROM spent_sign_ins WHERE (expires_at, id) IN (SELECT * FROM unnest($1, $2))
                    )
                    UPDATE failure_counters AS c
                    SET consecutive_failures = counter.failures, locked_until = CASE WHEN counter.is_locked THEN counter.until END,
                        counted_at = counter.counted_at
                    FROM unnest($3, $4, $5, $6, $7) AS counter (key, failures, is_locked, until, counted_at)
                    WHERE c.key = counter.key;
                END $$
                """,
            ]
        ),
        Migration(
            version: 10,
            summary: "email actions: the codes of password resets, address verifications and sign-in links, by their keyed digests",
            statements: [
                """
                CREATE TABLE email_actions (
                    code_digest bytea PRIMARY KEY,
                    kind text NOT NULL,
                    user_id text,
                    email text NOT NULL,
                    new_email text,
                    created_at bigint NOT NULL,
                    expires_at bigint NOT NULL
                )
                """,
                "CREATE INDEX email_actions_by_expiry ON email_actions (expires_at)",
                "CREATE INDEX email_actions_by_user ON email_actions (user_id)",
            ]
        ),
        Migration(
            version: 11,
            summary: "session claims: the developer claims of the custom token a session started with, for its ID tokens",
            statements: ["ALTER TABLE sessions ADD COLUMN session_claims text"]
        ),
        Migration(
            version: 12,
            summary: "passkeys: WebAuthn credentials by id, and the challenges of ceremonies under way by their digests",
            statements: [
                """
                CREATE TABLE passkeys (
                    credential_id bytea PRIMARY KEY,
                    user_id text NOT NULL,
                    user_handle bytea NOT NULL,
                    name text NOT NULL,
                    public_key bytea NOT NULL,
                    sign_count bigint NOT NULL,
                    user_verified boolean NOT NULL,
                    backup_eligible boolean NOT NULL,
                    backed_up boolean NOT NULL,
                    aaguid bytea NOT NULL,
                    created_at bigint NOT NULL,
                    last_used_at bigint,
                    enrollment_id text UNIQUE
                )
                """,
                "CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at)",
                // The passkeys enrolled as second factors, as the factor limit and the deletion of
                // an account's failure counters read each kind's factors.
                "CREATE VIEW passkey_factors AS SELECT enrollment_id AS id, user_id FROM passkeys WHERE enrollment_id IS NOT NULL",
                """
                CREATE TABLE passkey_challenges (
                    digest bytea PRIMARY KEY,
                    ceremony text NOT NULL,
                    user_id text,
                    user_handle bytea,
                    expires_at bigint NOT NULL
                )
                """,
                "CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at)",
                "CREATE INDEX passkey_challenges_by_user ON passkey_challenges (user_id)",
            ]
        ),
        Migration(
            version: 13,
            summary: "audit log: security events, each written in the transaction of the change it records",
            statements: [
                """
                CREATE TABLE audit_events (
                    sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    time bigint NOT NULL,
                    kind text NOT NULL,
                    user_id text,
                    actor text NOT NULL,
                    factor_kind text,
                    factor_id text,
                    provider text,
                    client_address text,
                    user_agent text,
                    reason text
                )
                """,
                // No index by time: events are written in time order, so a purge walks the
                // sequence from the oldest, and an index more would cost every sign-in its update.
                "CREATE INDEX audit_events_by_user ON audit_events (user_id, sequence)",
                // One call writes any number of events: a sign-in set's beside its own function in
                // one statement, planned once per connection as migration 8's are. An empty string
                // is a null (postgres-nio binds no array of optionals).
                """
                CREATE FUNCTION otpkit_record_audit_events(
                    times bigint[], kinds text[], user_ids text[], actors text[], factor_kinds text[], factor_ids text[],
                    providers text[], client_addresses text[], user_agents text[], reasons text[]
                ) RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO audit_events (time, kind, user_id, actor, factor_kind, factor_id, provider, client_address, user_agent, reason)
                    SELECT t, k, NULLIF(u, ''), a, NULLIF(fk, ''), NULLIF(fi, ''), NULLIF(p, ''), NULLIF(c, ''), NULLIF(ua, ''), NULLIF(r, '')
                    FROM unnest(times, kinds, user_ids, actors, factor_kinds, factor_ids, providers, client_addresses, user_agents, reasons)
                        AS e(t, k, u, a, fk, fi, p, c, ua, r);
                END
                $$
                """,
            ]
        ),
    ]

    /// How both reading functions of migration 8 claim credentials ($1 expiring at, $2 ids): their
    /// `spent_sign_ins` rows inserted in key order unless there, the ids inserted returned (the
    /// credentials the set claimed; the rest were spent). Part of a shipped migration: never edit.
    private static let claimsOfMigration8 = """
        claimed AS (
            INSERT INTO spent_sign_ins (expires_at, id)
            SELECT * FROM unnest($1, $2) AS claim (expires_at, id)
            ORDER BY expires_at, id
            ON CONFLICT DO NOTHING RETURNING id
        )
        """

    /// The key of the advisory lock migrations run under: "OTPK" and "MIGR" as one 64-bit number,
    /// so that no other application's lock is likely to collide with it.
    static let migrationLockKey: Int64 = 0x4F54_504B_4D49_4752

    /// Brings the schema up to date in one transaction under a transaction-scoped advisory lock:
    /// servers starting at once take turns, and the later ones find the migrations applied. A
    /// failed migration rolls back whole.
    func migrate() async throws(PostgresAuthStoreError) {
        try await transaction("migrating the schema", retry: .always) { connection in
            try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
            try await MigrationRecord(connection: connection).migrate(to: Self.migrations)
        }
    }

    /// The table `otpkit_migrations`, for OTPDurableStore's migration rules. Its methods run in
    /// the caller's transaction.
    struct MigrationRecord: MigrationTarget {
        let connection: Connection

        var store: PostgresAuthStore { connection.store }

        func appliedMigrations() async throws(PostgresAuthStoreError) -> [(version: Int, checksum: String)] {
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

        func apply(_ migration: Migration) async throws(PostgresAuthStoreError) {
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

        func schemaTooNew(version: Int, supported: Int) -> PostgresAuthStoreError {
            .schemaTooNew(server: store.server, version: version, supported: supported)
        }

        func migrationChanged(version: Int) -> PostgresAuthStoreError {
            .migrationChanged(server: store.server, version: version)
        }

        /// Runs `body`, reporting the driver's errors as the store's.
        private func run<Result>(_ operation: String, _ body: () async throws -> Result) async throws(PostgresAuthStoreError) -> Result {
            do {
                return try await body()
            } catch {
                throw store.classify(error, operation: operation).error
            }
        }
    }
}
