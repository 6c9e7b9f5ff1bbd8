import Foundation
import OTPCore
import OTPAuthentication
import OTPAuthenticationTestSupport
@testable import OTPAuthenticationSQLite
import SQLiteNIO
import OTPSealing
import Testing

@Suite("SQLite store persistence")
struct PersistenceTests {
    @Test("enroll, close, reopen, sign in; the accepted step survives another restart")
    func enrollCloseReopenSignIn() async throws {
        let database = try TestDatabase()
        let first = try await database.open()
        let enrolled = try await enroll(first, userID: "alice", algorithm: .sha256)
        try await first.close()

        let second = try await database.open()
        let reopened = try #require(try await second.factor(id: enrolled.id))
        #expect(reopened == enrolled)
        #expect(try await second.factors(userID: "alice").map(\.id) == [enrolled.id])
        let totp = try TOTP(secret: reopened.secret, algorithm: reopened.algorithm, digits: reopened.digits, period: reopened.period)
        let now = TOTP.currentUnixTime()
        let match = try #require(try totp.verify(totp.code(at: now), at: now, window: .oneStep, after: reopened.lastAcceptedStep))
        #expect(try await second.recordAcceptedStep(match.step, factorID: enrolled.id) == .accepted)
        try await second.close()

        let third = try await database.open()
        let afterSignIn = try #require(try await third.factor(id: enrolled.id))
        #expect(afterSignIn.lastAcceptedStep == match.step)
        #expect(try totp.verify(totp.code(at: now), at: now, window: .oneStep, after: afterSignIn.lastAcceptedStep) == nil)
        #expect(try await third.recordAcceptedStep(match.step, factorID: enrolled.id) == .rejected(lastAcceptedStep: match.step))
        try await third.close()
    }

    @Test("the file is in WAL mode with synchronous=FULL, foreign keys on, and the migration recorded")
    func pragmas() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        try await RawDatabase.with(database.path) { connection in
            #expect(try await connection.value("PRAGMA journal_mode") == "wal")
            #expect(try await connection.value("PRAGMA application_id") == "1330925643")
            #expect(try await connection.value("SELECT group_concat(version) FROM otpkit_migrations") == "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15")
            // Migration 1 is shipped: its text must never change (append a migration instead).
            let checksum = try await connection.value("SELECT checksum FROM otpkit_migrations WHERE version = 1")
            #expect(checksum == "6b52d82bf7c0c8b56e984af2044f5b2ed4b6c36618121ebd50082c950e17106a")
            // Computed here by Python's hashlib, not by OTPKit.
            #expect(
                try await connection.value("SELECT checksum FROM otpkit_migrations WHERE version = 2")
                    == "1c3cf46ddb78d4fbd5450dfdc8e08bd96f48c7def6cba6920ad7523c35ced786")
            #expect(
                try await connection.value("SELECT checksum FROM otpkit_migrations WHERE version = 3")
                    == "d14e6f7660eb456368fa6cad5a8a7a37267942f5ee31728c6bb33fe3eb139169")
            #expect(
                try await connection.value("SELECT checksum FROM otpkit_migrations WHERE version = 4")
                    == "a26c3c247f6ab06bf18254cef7a001f8437bd38c20d24045fde2a58b867c7998")
            #expect(
                try await connection.value("SELECT checksum FROM otpkit_migrations WHERE version = 5")
                    == "ddaaad76626f67db99fbeb36da28cadd9cd02f0cd9a7b5a5639cd00d51620523")
        }

        let store = try await database.open()
        #expect(try await store.integrityProblems().isEmpty)
        // synchronous and foreign_keys belong to the connection, so ask the store's own.
        let synchronous = try await store.locked { () throws(SQLiteAuthStoreError) in try await store.execute("PRAGMA synchronous") }
        #expect(synchronous.first?.column("synchronous")?.integer == 2)
        let foreignKeys = try await store.locked { () throws(SQLiteAuthStoreError) in try await store.execute("PRAGMA foreign_keys") }
        #expect(foreignKeys.first?.column("foreign_keys")?.integer == 1)
        let busyTimeout = try await store.locked { () throws(SQLiteAuthStoreError) in try await store.execute("PRAGMA busy_timeout") }
        #expect(busyTimeout.first?.columns.first?.data.integer == 10_000)
        try await store.close()
    }

    @Test("a store closes from a cancelled task too (a sibling's failure cancels it), and is closed afterwards")
    func closeWhenCancelled() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let closing = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.close()
        }
        try await closing.value
        let error = await #expect(throws: SQLiteAuthStoreError.self) { _ = try await store.factors(userID: "bob") }
        #expect(error.map { "\($0)".contains("closed") } == true, "\(String(describing: error))")
    }

    @Test("opening twice at once (two stores on one file) works, and both see each other's writes")
    func twoStoresOneFile() async throws {
        let database = try TestDatabase()
        // A minute rather than ten seconds for the other's lock: in a full test run the process's
        // few threads are busy with other tests, and the store holding the lock may wait for one.
        let options = SQLiteAuthStore.Options(busyTimeoutMilliseconds: 60_000)
        async let a = SQLiteAuthStore.open(path: database.path, sealer: SecretSealer(current: database.key), options: options)
        async let b = SQLiteAuthStore.open(path: database.path, sealer: SecretSealer(current: database.key), options: options)
        let (first, second) = try await (a, b)
        let factor = try await enroll(first, userID: "bob")
        #expect(try await second.factor(id: factor.id) == factor)
        #expect(try await second.recordAcceptedStep(7, factorID: factor.id) == .accepted)
        #expect(try await first.recordAcceptedStep(7, factorID: factor.id) == .rejected(lastAcceptedStep: 7))
        try await first.close()
        try await second.close()
    }

    @Test("a closed store says so")
    func closed() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        try await store.close()
        try await store.close()
        await #expect(throws: SQLiteAuthStoreError.closed(path: database.path)) { try await store.factor(id: "x") }
    }

    @Test("a database from before sessions expired migrates: its sessions end 30 days after sign-in and purge")
    func sessionsMigrate() async throws {
        let database = try await Self.database(migratedTo: 1) { connection in
            _ = try await connection.query("INSERT INTO sessions VALUES ('old-session', 'alice', 'password', 1000, NULL)")
        }
        let store = try await database.open()
        let session = try #require(try await store.session(id: "old-session"))
        #expect(session.lastUsedAt == 1_000)
        #expect(session.expiresAt == 1_000 + 30 * 86_400)
        try await store.purgeExpired(before: 1_000 + 30 * 86_400, failuresCountedBefore: 0)
        #expect(try await store.session(id: "old-session") != nil, "a migrated session at its expiry")
        try await store.purgeExpired(before: 1_001 + 30 * 86_400, failuresCountedBefore: 0)
        #expect(try await store.session(id: "old-session") == nil, "a migrated session past its expiry")
        try await store.close()
    }

    @Test("a database from before token buckets migrates: failure counters kept and dated at the migration, quotas starting again")
    func countersMigrate() async throws {
        let database = try await Self.database(migratedTo: 10) { connection in
            _ = try await connection.query(
                "INSERT INTO failure_counters VALUES (?, 3, NULL)", [.text(AuthStoreConformance.counterKeyBeforeTokenBuckets)])
            _ = try await connection.query(
                "INSERT INTO quotas VALUES (?, 0, 3600, 5)", [.text(AuthStoreConformance.quotaKeyBeforeTokenBuckets)])
        }
        let migratedAt = Int64(Date().timeIntervalSince1970)
        let store = try await database.open()
        try await AuthStoreConformance.checkUpgradedCounters(store, migratedAt: migratedAt)
        try await store.close()
    }

    @Test("a database from before token revocation migrates: its accounts read back with no revocation, which an update then sets")
    func accountsMigrate() async throws {
        let database = try await Self.database(migratedTo: 7) { connection in
            _ = try await connection.query(
                "INSERT INTO accounts VALUES ('old-account', 'old@example.com', 1, 'Old', NULL, 0, 1000, 2000, NULL)")
        }
        let store = try await database.open()
        let expected = AccountRecord(
            id: "old-account", email: "old@example.com", isEmailVerified: true, displayName: "Old", createdAt: 1_000, lastSignInAt: 2_000)
        #expect(try await store.account(id: "old-account") == expected)
        var revoked = expected
        revoked.tokensValidAfter = 3_000
        #expect(try await store.updateAccount(id: "old-account", changes: AccountChanges(tokensValidAfter: 3_000)) == .updated(revoked))
        #expect(try await store.account(id: "old-account") == revoked)
        try await store.close()
    }

    @Test("a database from when pending sign-ins were stored migrates: they are dropped, and spent ones are kept from then on")
    func pendingSignInsMigrate() async throws {
        let database = try await Self.database(migratedTo: 9) { connection in
            _ = try await connection.query("INSERT INTO pending_sign_ins VALUES ('old-credential', 'alice', 'password', 1000, 1300)")
            _ = try await connection.query(
                "INSERT INTO sessions (id, user_id, first_factor_provider, authenticated_at) VALUES ('kept', 'alice', 'password', 1000)")
        }
        let store = try await database.open()
        #expect(try await store.session(id: "kept")?.userID == "alice", "a session from before")
        let credential = PendingSignInRecord(id: "fresh", userID: "alice", firstFactorProvider: "password", createdAt: 2_000, expiresAt: 2_300)
        #expect(try await store.spendPendingSignIn(credential))
        #expect(try await !store.spendPendingSignIn(credential), "spent once")
        try await store.close()
        let (oldTables, spent) = try await RawDatabase.with(database.path) { connection in
            (
                try await connection.value("SELECT count(*) FROM sqlite_schema WHERE name = 'pending_sign_ins'"),
                try await connection.value("SELECT group_concat(id) FROM spent_sign_ins")
            )
        }
        #expect(oldTables == "0", "the table of stored pending sign-ins after the migration")
        #expect(spent == "fresh")
    }

    /// A new database file as an OTPKit whose last migration was `version` left it, with the rows
    /// `insert` writes, for the tests of the migrations after it.
    static func database(migratedTo version: Int, _ insert: (SQLiteConnection) async throws -> Void) async throws -> TestDatabase {
        let database = try TestDatabase()
        let migrations = SQLiteAuthStore.migrations.prefix { $0.version <= version }
        try #require(migrations.count == version)
        try await RawDatabase.with(database.path) { connection in
            _ = try await connection.query("PRAGMA application_id = \(SQLiteAuthStore.applicationID)")
            _ = try await connection.query(
                "CREATE TABLE otpkit_migrations (version INTEGER PRIMARY KEY, summary TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL) STRICT"
            )
            for migration in migrations {
                for statement in migration.statements { _ = try await connection.query(statement) }
                _ = try await connection.query(
                    "INSERT INTO otpkit_migrations VALUES (?, ?, ?, 0)",
                    [.integer(migration.version), .text(migration.summary), .text(migration.checksum)])
            }
            try await insert(connection)
        }
        return database
    }
}
