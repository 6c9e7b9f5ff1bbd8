import Glibc
import OTPAuthentication
import OTPAuthenticationTestSupport
@testable import OTPAuthenticationPostgres
import OTPPostgresTestServer
import PostgresNIO
import Testing

@Suite("Postgres: migrations")
struct MigrationTests {
    @Test("a second open applies nothing again and keeps the recorded checksums")
    func idempotent() async throws {
        try await withStore { store, database in
            let before = try await database.query("SELECT version, checksum, applied_at FROM otpkit_migrations ORDER BY version")
            #expect(before.count >= 3)
            let again = try await database.open()
            await again.close()
            let after = try await database.query("SELECT version, checksum, applied_at FROM otpkit_migrations ORDER BY version")
            #expect(after.count == before.count)
            for (old, new) in zip(before, after) {
                #expect(try old["checksum"].decode(String.self) == new["checksum"].decode(String.self))
                #expect(try old["applied_at"].decode(Int64.self) == new["applied_at"].decode(Int64.self))
            }
        }
    }

    @Test("a recorded checksum that differs from the shipped migration refuses to open")
    func tamperedChecksum() async throws {
        try await withStore { _, database in
            try await database.query("UPDATE otpkit_migrations SET checksum = 'edited' WHERE version = 2")
            let error = await #expect(throws: PostgresAuthStoreError.self) { try await database.open() }
            guard case .migrationChanged(_, let version) = error else {
                Issue.record("expected migrationChanged, got \(String(describing: error))")
                return
            }
            #expect(version == 2)
        }
    }

    @Test("a schema from a newer OTPKit refuses to open")
    func newerSchema() async throws {
        try await withStore { _, database in
            try await database.query("INSERT INTO otpkit_migrations (version, summary, checksum, applied_at) VALUES (99, 'future', 'x', 0)")
            let error = await #expect(throws: PostgresAuthStoreError.self) { try await database.open() }
            guard case .schemaTooNew(_, let version, _) = error else {
                Issue.record("expected schemaTooNew, got \(String(describing: error))")
                return
            }
            #expect(version == 99)
        }
    }

    @Test("a database of schema 8 upgrades: failure counters kept and dated at the migration, quotas starting again as token buckets")
    func upgradesFromSchema8() async throws {
        try await TestDatabase.withFresh { database in
            try await database.query(
                "CREATE TABLE otpkit_migrations (version bigint PRIMARY KEY, summary text NOT NULL, checksum text NOT NULL, applied_at bigint NOT NULL)"
            )
            for migration in PostgresAuthStore.migrations where migration.version <= 8 {
                for statement in migration.statements { try await database.query(PostgresQuery(unsafeSQL: statement)) }
                try await database.query(
                    """
                    INSERT INTO otpkit_migrations (version, summary, checksum, applied_at)
                    VALUES (\(Int64(migration.version)), \(migration.summary), \(migration.checksum), 0)
                    """)
            }
            let (counter, quota) = (AuthStoreConformance.counterKeyBeforeTokenBuckets, AuthStoreConformance.quotaKeyBeforeTokenBuckets)
            try await database.query("INSERT INTO failure_counters (key, consecutive_failures, locked_until) VALUES (\(counter), 3, NULL)")
            try await database.query("INSERT INTO quotas (key, window_start, window_end, count) VALUES (\(quota), 0, 3600, 5)")
            let migratedAt = Int64(time(nil))
            let store = try await database.open()
            do {
                try await AuthStoreConformance.checkUpgradedCounters(store, migratedAt: migratedAt)
                let versions = try await database.query("SELECT max(version) AS v FROM otpkit_migrations")
                #expect(try versions.first?["v"].decode(Int64.self) == Int64(PostgresAuthStore.migrations.count))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    @Test("stores opening one fresh database at once all succeed and migrate it once")
    func concurrentOpens() async throws {
        let database = try await TestDatabase.create(ownDatabase: true)
        defer { Task { await database.drop() } }
        let stores = try await withThrowingTaskGroup(of: PostgresAuthStore.self) { group in
            for _ in 0..<4 { group.addTask { try await database.open(poolSize: 2) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(stores.count == 4)
        let versions = try await database.query("SELECT version FROM otpkit_migrations").count
        let keys = try await database.query("SELECT id FROM store_secrets").count
        #expect(versions == PostgresAuthStore.migrations.count, "every migration once")
        #expect(keys == 1, "one code digest key, shared by every store")
        let digests = stores.map { $0.codeDigestKeys?.currentKeyID }
        #expect(Set(digests).count == 1)
        for store in stores { await store.close() }
    }

    @Test("completion sets take the session locks that single session inserts take")
    func sessionLockNamespace() throws {
        let function = try #require(
            PostgresAuthStore.migrations.flatMap(\.statements).first { $0.contains("FUNCTION otpkit_sign_in_completion_rows") })
        let namespace = PostgresAuthStore.Connection.LockNamespace.sessionsOfUser.rawValue
        #expect(function.contains("pg_advisory_xact_lock(\(namespace), user_hash)"))
    }
}
