internal import NIOCore
internal import OTPDurableStore
internal import OTPAuthentication
internal import PostgresNIO

// A connection inside one of the store's transactions: the primitives the durable stores' shared
// rules are written in. What a primitive reads to decide on a write it locks (`FOR UPDATE`, the
// credential's claim, the user's factor lock).
extension PostgresAuthStore.Connection: DurableTransaction {
    typealias Failure = any Error

    func resetFailures(key: String) async throws {
        try await execute("DELETE FROM failure_counters WHERE key = \(key)")
    }

    func hasPhoneFactor(id: String, userID: String) async throws -> Bool {
        try await !query("SELECT id FROM phone_factors WHERE id = \(id) AND user_id = \(userID)").isEmpty
    }

    func hasPhoneFactor(number: String, userID: String) async throws -> Bool {
        try await !query("SELECT id FROM phone_factors WHERE user_id = \(userID) AND phone_number = \(number)").isEmpty
    }

    func insertFactor(_ factor: FactorRecord) async throws {
        let sealed = try store.sealed(factor.secret, recordID: factor.id)
        let step = try factor.lastAcceptedStep.map { step throws(PostgresAuthStoreError) in try PostgresAuthStore.storedStep(step) }
        try await execute(
            """
            INSERT INTO factors (\(unescaped: StoredColumns.factor))
            VALUES (\(factor.id), \(factor.userID), \(factor.factorID), \(factor.displayName), \(factor.enrolledAt), \(sealed.bytes),
                    \(sealed.keyID), \(factor.algorithm.rawValue), \(Int64(factor.digits)), \(factor.period), \(step))
            """)
    }

    func insertPhoneFactor(_ factor: PhoneFactorRecord) async throws {
        try await execute(
            """
            INSERT INTO phone_factors (\(unescaped: StoredColumns.phoneFactor))
            VALUES (\(factor.id), \(factor.userID), \(factor.displayName), \(factor.enrolledAt), \(factor.phoneNumber))
            """)
    }

    /// By a `DELETE … RETURNING`, so of two servers offering one code only the one whose statement
    /// deletes the row completes (the other waits for the row, then finds it gone). The row is
    /// found by its keyed digest through the primary key.
    func spendRecoveryCode(userID: String, digests: [[UInt8]]) async throws -> Bool {
        for digest in digests {
            let deleted = try await query(
                "DELETE FROM recovery_codes WHERE user_id = \(userID) AND digest = \(ByteBuffer(bytes: digest)) RETURNING user_id")
            if !deleted.isEmpty { return true }
        }
        return false
    }

    /// Under a savepoint, so that a refusal found after a write (a unique index) undoes that
    /// write alone and the caller's transaction goes on.
    func updateAccount(id: String, changes: AccountChanges) async throws -> AccountUpdate {
        try await execute("SAVEPOINT account_update")
        do {
            let update = try await updateAccountRow(id: id, changes: changes)
            try await execute("RELEASE SAVEPOINT account_update")
            return update
        } catch let abandoned as PostgresAuthStore.Abandoned<AccountUpdate> {
            try await execute("ROLLBACK TO SAVEPOINT account_update")
            return abandoned.result
        }
    }

    func lockedEmailAction(digest: [UInt8]) async throws -> EmailActionRecord? {
        let rows = try await query(
            "SELECT \(unescaped: StoredColumns.emailAction) FROM email_actions WHERE code_digest = \(ByteBuffer(bytes: digest)) FOR UPDATE")
        return try rows.first.map { row in try PostgresStoredRow(row: row).emailActionRecord() }
    }

    func removeEmailAction(digest: [UInt8]) async throws {
        try await execute("DELETE FROM email_actions WHERE code_digest = \(ByteBuffer(bytes: digest))")
    }

    func lockedPasskeyFactor(enrollmentID: String, userID: String) async throws -> PasskeyRecord? {
        let rows = try await query(
            "SELECT \(unescaped: StoredColumns.passkey) FROM passkeys WHERE enrollment_id = \(enrollmentID) AND user_id = \(userID) FOR UPDATE")
        return try rows.first.map { row in try PostgresStoredRow(row: row).passkeyRecord() }
    }

    func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws -> Bool {
        try await !query(
            """
            UPDATE passkeys SET sign_count = \(Int64(use.signCount)), backed_up = \(use.isBackedUp),
                user_verified = user_verified OR \(use.isUserVerified), last_used_at = \(use.at)
            WHERE credential_id = \(ByteBuffer(bytes: credentialID)) AND sign_count = \(Int64(previousSignCount))
            RETURNING sign_count
            """
        ).isEmpty
    }
}
