internal import OTPDurableStore
internal import SQLiteNIO

internal import Glibc

extension SQLiteAuthStore {
    /// `PRAGMA application_id` of an OTPKit database: "OTPK".
    static let applicationID: Int64 = 0x4F54_504B

    /// Every migration, in order. Append only.
    static let migrations: [Migration] = [
        Migration(
            version: 1,
            summary: "pending enrollments, factors, failure counters, pending sign-ins, sessions",
            statements: [
                """
                CREATE TABLE pending_enrollments (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    sealed_secret BLOB NOT NULL,
                    key_id TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    digits INTEGER NOT NULL,
                    period INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    deadline INTEGER NOT NULL
                ) STRICT
                """,
                "CREATE INDEX pending_enrollments_by_deadline ON pending_enrollments (deadline)",
                "CREATE INDEX pending_enrollments_by_key ON pending_enrollments (key_id)",
                """
                CREATE TABLE factors (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    factor_id TEXT NOT NULL,
                    display_name TEXT,
                    enrolled_at INTEGER NOT NULL,
                    sealed_secret BLOB NOT NULL,
                    key_id TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    digits INTEGER NOT NULL,
                    period INTEGER NOT NULL,
                    last_accepted_step INTEGER
                ) STRICT
                """,
                "CREATE INDEX factors_by_user ON factors (user_id, enrolled_at, id)",
                "CREATE INDEX factors_by_key ON factors (key_id)",
                """
                CREATE TABLE failure_counters (
                    key TEXT PRIMARY KEY,
                    consecutive_failures INTEGER NOT NULL,
                    locked_until INTEGER
                ) STRICT
                """,
                """
                CREATE TABLE pending_sign_ins (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    first_factor_provider TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                ) STRICT
                """,
                "CREATE INDEX pending_sign_ins_by_expiry ON pending_sign_ins (expires_at)",
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    first_factor_provider TEXT NOT NULL,
                    authenticated_at INTEGER NOT NULL,
                    second_factor_enrollment_id TEXT
                ) STRICT
                """,
                "CREATE INDEX sessions_by_user ON sessions (user_id)",
            ]
        ),
        Migration(
            version: 2,
            summary: "sessions expire: last use and expiry; sessions from before expire 30 days after sign-in",
            statements: [
                "ALTER TABLE sessions ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE sessions ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0",
                "UPDATE sessions SET last_used_at = authenticated_at, expires_at = authenticated_at + 2592000",
                "CREATE INDEX sessions_by_expiry ON sessions (expires_at)",
            ]
        ),
        Migration(
            version: 3,
            summary: "recovery codes as keyed digests; the store's own sealed keys",
            statements: [
                """
                CREATE TABLE recovery_codes (
                    user_id TEXT NOT NULL,
                    digest BLOB NOT NULL,
                    PRIMARY KEY (user_id, digest)
                ) STRICT
                """,
                """
                CREATE TABLE store_secrets (
                    id TEXT PRIMARY KEY,
                    sealed_secret BLOB NOT NULL,
                    key_id TEXT NOT NULL
                ) STRICT
                """,
                "CREATE INDEX store_secrets_by_key ON store_secrets (key_id)",
            ]
        ),
        Migration(
            version: 4,
            summary: "quota counters in fixed windows (text messages per number and per user)",
            statements: [
                """
                CREATE TABLE quotas (
                    key TEXT PRIMARY KEY,
                    window_start INTEGER NOT NULL,
                    window_end INTEGER NOT NULL,
                    count INTEGER NOT NULL
                ) STRICT
                """,
                "CREATE INDEX quotas_by_window_end ON quotas (window_end)",
            ]
        ),
        Migration(
            version: 5,
            summary: "phone factors and the verifications of codes sent to them",
            statements: [
                """
                CREATE TABLE phone_factors (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    display_name TEXT,
                    enrolled_at INTEGER NOT NULL,
                    phone_number TEXT NOT NULL
                ) STRICT
                """,
                "CREATE INDEX phone_factors_by_user ON phone_factors (user_id, enrolled_at, id)",
                """
                CREATE TABLE phone_verifications (
                    id TEXT PRIMARY KEY,
                    purpose TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    enrollment_id TEXT,
                    credential_id TEXT,
                    phone_number TEXT NOT NULL,
                    code_digest BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    failed_attempts INTEGER NOT NULL
                ) STRICT
                """,
                "CREATE INDEX phone_verifications_by_expiry ON phone_verifications (expires_at)",
            ]
        ),
        Migration(
            version: 6,
            summary: "accounts: the user records of first factors, email addresses unique",
            statements: [
                """
                CREATE TABLE accounts (
                    id TEXT PRIMARY KEY,
                    email TEXT UNIQUE,
                    email_verified INTEGER NOT NULL,
                    display_name TEXT,
                    photo_url TEXT,
                    disabled INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_sign_in_at INTEGER,
                    password_hash TEXT
                ) STRICT
                """
            ]
        ),
        Migration(
            version: 7,
            summary: "provider identities of accounts, each identity on one account, one per provider",
            statements: [
                """
                CREATE TABLE provider_identities (
                    provider_id TEXT NOT NULL,
                    provider_uid TEXT NOT NULL,
                    account_id TEXT NOT NULL,
                    email TEXT,
                    display_name TEXT,
                    phone_number TEXT,
                    PRIMARY KEY (provider_id, provider_uid),
                    UNIQUE (account_id, provider_id)
                ) STRICT
                """
            ]
        ),
        Migration(
            version: 8,
            summary: "accounts: the time before which their tokens are revoked (Firebase's validSince)",
            statements: ["ALTER TABLE accounts ADD COLUMN tokens_valid_after INTEGER"]
        ),
        Migration(
            version: 9,
            summary: "accounts: the custom claims an administrator set (Firebase's customAttributes)",
            statements: ["ALTER TABLE accounts ADD COLUMN custom_attributes TEXT"]
        ),
        Migration(
            version: 10,
            summary: "pending sign-ins travel in their credentials: only the ids of the spent ones are kept, until they expire",
            statements: [
                "DROP TABLE pending_sign_ins",
                // Keyed by expiry first: a completion, which knows both from the credential, appends
                // near the end of the one B-tree instead of writing a random page of it and one of an
                // index, and the purge deletes a prefix.
                """
                CREATE TABLE spent_sign_ins (
                    expires_at INTEGER NOT NULL,
                    id TEXT NOT NULL,
                    PRIMARY KEY (expires_at, id)
                ) STRICT, WITHOUT ROWID
                """,
            ]
        ),
        Migration(
            version: 11,
            summary:
                "quotas as token buckets (the counts of fixed windows start again); failure counters remember when they counted; the sources accounts signed in from",
            statements: [
                "DROP TABLE quotas",
                "CREATE TABLE quota_buckets (key TEXT PRIMARY KEY, drained_at INTEGER NOT NULL) STRICT",
                "CREATE INDEX quota_buckets_by_drain ON quota_buckets (drained_at)",
                "ALTER TABLE failure_counters ADD COLUMN counted_at INTEGER NOT NULL DEFAULT 0",
                "UPDATE failure_counters SET counted_at = CAST(strftime('%s', 'now') AS INTEGER)",
                """
                CREATE TABLE sign_in_sources (
                    user_id TEXT NOT NULL,
                    source TEXT NOT NULL,
                    expires_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, source)
                ) STRICT, WITHOUT ROWID
                """,
                "CREATE INDEX sign_in_sources_by_expiry ON sign_in_sources (expires_at)",
            ]
        ),
        Migration(
            version: 12,
            summary: "email actions: the codes of password resets, address verifications and sign-in links, by their keyed digests",
            statements: [
                """
                CREATE TABLE email_actions (
                    code_digest BLOB PRIMARY KEY,
                    kind TEXT NOT NULL,
                    user_id TEXT,
                    email TEXT NOT NULL,
                    new_email TEXT,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                ) STRICT
                """,
                "CREATE INDEX email_actions_by_expiry ON email_actions (expires_at)",
                "CREATE INDEX email_actions_by_user ON email_actions (user_id)",
            ]
        ),
        Migration(
            version: 13,
            summary: "session claims: the developer claims of the custom token a session started with, for its ID tokens",
            statements: ["ALTER TABLE sessions ADD COLUMN session_claims TEXT"]
        ),
        Migration(
            version: 14,
            summary: "passkeys: WebAuthn credentials by id, and the challenges of ceremonies under way by their digests",
            statements: [
                """
                CREATE TABLE passkeys (
                    credential_id BLOB PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    user_handle BLOB NOT NULL,
                    name TEXT NOT NULL,
                    public_key BLOB NOT NULL,
                    sign_count INTEGER NOT NULL,
                    user_verified INTEGER NOT NULL,
                    backup_eligible INTEGER NOT NULL,
                    backed_up INTEGER NOT NULL,
                    aaguid BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    last_used_at INTEGER,
                    enrollment_id TEXT UNIQUE
                ) STRICT
                """,
                "CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at)",
                // The passkeys enrolled as second factors, as the factor limit and the deletion of
                // an account's failure counters read each kind's factors.
                "CREATE VIEW passkey_factors AS SELECT enrollment_id AS id, user_id FROM passkeys WHERE enrollment_id IS NOT NULL",
                """
                CREATE TABLE passkey_challenges (
                    digest BLOB PRIMARY KEY,
                    ceremony TEXT NOT NULL,
                    user_id TEXT,
                    user_handle BLOB,
                    expires_at INTEGER NOT NULL
                ) STRICT
                """,
                "CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges (expires_at)",
                "CREATE INDEX passkey_challenges_by_user ON passkey_challenges (user_id)",
            ]
        ),
        Migration(
            version: 15,
            summary: "audit log: security events, each written in the transaction of the change it records",
            statements: [
                // AUTOINCREMENT: a purged event's number is never given again, so a page token
                // (the last number of a page) never skips or repeats an event.
                """
                CREATE TABLE audit_events (
                    sequence INTEGER PRIMARY KEY AUTOINCREMENT,
                    time INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    user_id TEXT,
                    actor TEXT NOT NULL,
                    factor_kind TEXT,
                    factor_id TEXT,
                    provider TEXT,
                    client_address TEXT,
                    user_agent TEXT,
                    reason TEXT
                ) STRICT
                """,
                // No index by time: events are written in time order, so a purge walks the
                // sequence from the oldest, and an index more would cost every sign-in its update.
                "CREATE INDEX audit_events_by_user ON audit_events (user_id, sequence)",
            ]
        ),
    ]

    /// Brings the schema up to date inside one write transaction, so two processes opening a new
    /// file at once cannot both migrate it, and a failed migration leaves nothing half-done.
    func migrate() async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            let applicationID = try await self.execute("PRAGMA application_id").first?.column("application_id")?.integer ?? 0
            let tables = try await self.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").compactMap { $0.column("name")?.string }
            if applicationID == 0 {
                guard tables.isEmpty else { throw .notAnOTPKitDatabase(path: self.path) }
                try await self.execute("PRAGMA application_id = \(Self.applicationID)")
            } else if applicationID != Self.applicationID {
                throw .notAnOTPKitDatabase(path: self.path)
            }
            try await MigrationRecord(store: self).migrate(to: Self.migrations)
        }
    }

    /// The table `otpkit_migrations`, for OTPDurableStore's migration rules. Its methods run in
    /// the caller's transaction.
    struct MigrationRecord: MigrationTarget {
        let store: SQLiteAuthStore

        func appliedMigrations() async throws(SQLiteAuthStoreError) -> [(version: Int, checksum: String)] {
            try await store.execute(
                """
                CREATE TABLE IF NOT EXISTS otpkit_migrations (
                    version INTEGER PRIMARY KEY,
                    summary TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at INTEGER NOT NULL
                ) STRICT
                """)
            var applied: [(version: Int, checksum: String)] = []
            for row in try await store.execute("SELECT version, checksum FROM otpkit_migrations ORDER BY version") {
                let reader = RowReader(row: row)
                applied.append((Int(try reader.integer("version", of: "migration")), try reader.text("checksum", of: "migration")))
            }
            return applied
        }

        func apply(_ migration: Migration) async throws(SQLiteAuthStoreError) {
            for statement in migration.statements {
                try await store.execute(statement)
            }
            try await store.execute(
                "INSERT INTO otpkit_migrations (version, summary, checksum, applied_at) VALUES (?, ?, ?, ?)",
                [.integer(migration.version), .text(migration.summary), .text(migration.checksum), .integer(SQLiteInt64(time(nil)))]
            )
        }

        func schemaTooNew(version: Int, supported: Int) -> SQLiteAuthStoreError {
            .schemaTooNew(path: store.path, version: version, supported: supported)
        }

        func migrationChanged(version: Int) -> SQLiteAuthStoreError {
            .migrationChanged(path: store.path, version: version)
        }
    }
}
