import OTPCore
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPPostgresTestServer
import Testing

/// Runs `body` on a store in a fresh schema (or database), then closes the store and drops it.
func withStore<Result>(ownDatabase: Bool = false, _ body: (PostgresAuthStore, TestDatabase) async throws -> Result) async throws -> Result {
    try await TestDatabase.withFresh(ownDatabase: ownDatabase) { database in
        let store = try await database.open()
        do {
            let result = try await body(store, database)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

/// Enrolls a TOTP factor for `userID` through the store (pending enrollment, then finalization).
@discardableResult
func enroll(
    _ store: PostgresAuthStore, id: String = "factor-\(UInt64.random(in: 0...UInt64.max))", userID: String = "user-1",
    secret: OTPSecret? = nil
) async throws -> FactorRecord {
    let secret = try secret ?? OTPSecret.random(for: .sha1)
    let now = TOTP.currentUnixTime()
    let pending = PendingEnrollmentRecord(
        id: "pending-\(id)", userID: userID, secret: secret, algorithm: .sha1, digits: 6, period: 30, createdAt: now, deadline: now + 600)
    try await store.insertPendingEnrollment(pending)
    let factor = FactorRecord(
        id: id, userID: userID, factorID: "totp", displayName: "phone", enrolledAt: now, secret: secret, algorithm: .sha1, digits: 6,
        period: 30, lastAcceptedStep: nil)
    try #require(try await store.finalizeEnrollment(pendingID: pending.id, factor: factor, maximumFactorCount: 5) == .enrolled)
    return factor
}
