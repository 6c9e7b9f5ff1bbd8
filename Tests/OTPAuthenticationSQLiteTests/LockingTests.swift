import OTPAuthentication
import OTPAuthenticationSQLite
import OTPSealing
import SQLiteNIO
import Testing

/// Another connection (as another process would) holding SQLite's write lock.
@Suite("SQLite store waits for a locked database")
struct LockingTests {
    @Test("a write waits while another connection holds the lock, and goes through when it is released")
    func waitsForTheLock() async throws {
        let database = try TestDatabase()
        let store = try await database.open()
        let factor = try await enroll(store)
        try await RawDatabase.with(database.path) { other in
            _ = try await other.query("BEGIN IMMEDIATE")
            let pending = Task { try await store.recordAcceptedStep(42, factorID: factor.id) }
            try await Task.sleep(for: .milliseconds(300))
            _ = try await other.query("COMMIT")
            #expect(try await pending.value == .accepted)
        }
        try await store.close()
    }

    @Test("past the busy timeout, a clear busy error instead of a hang")
    func busyTimeout() async throws {
        let database = try TestDatabase()
        try await database.open().close()
        let store = try await SQLiteAuthStore.open(
            path: database.path, sealer: SecretSealer(current: database.key),
            options: .init(busyTimeoutMilliseconds: 50)
        )
        try await RawDatabase.with(database.path) { other in
            _ = try await other.query("BEGIN IMMEDIATE")
            let error = await #expect(throws: SQLiteAuthStoreError.busy(path: database.path, timeoutMilliseconds: 50)) {
                try await store.recordFailure(key: "k", at: 0, limit: 5, lockout: 60)
            }
            #expect(error?.description == "enrollment database \(database.path) stayed locked by another process for more than 50 ms")
            _ = try await other.query("COMMIT")
        }
        #expect(try await store.recordFailure(key: "k", at: 0, limit: 5, lockout: 60).consecutiveFailures == 1)
        try await store.close()
    }
}
