internal import NIOCore
internal import OTPDurableStore
internal import OTPAuthentication
internal import SQLiteNIO

/// The store holding its writer, inside one of its write transactions (`BEGIN IMMEDIATE`, which
/// serialises writers, so reads need no lock of their own) or for one statement under its lock:
/// the primitives the durable stores' shared rules are written in.
struct SQLiteTransaction: DurableTransaction {
    typealias Failure = SQLiteAuthStoreError

    let store: SQLiteAuthStore

    func completing(
        _ credential: PendingSignInRecord, at time: Int64, _ body: () async throws(SQLiteAuthStoreError) -> SignInCompletion
    ) async throws(SQLiteAuthStoreError) -> SignInCompletion {
        if let refusal = try await store.refuseCredential(credential, at: time) { return refusal }
        let outcome = try await body()
        if outcome == .completed { try await store.spend(credential) }
        return outcome
    }

    func failureCounter(key: String) async throws(SQLiteAuthStoreError) -> FailureCounter {
        try await store.readFailureCounter(key: key)
    }

    func resetFailures(key: String) async throws(SQLiteAuthStoreError) {
        try await store.execute("DELETE FROM failure_counters WHERE key = ?", [.text(key)])
    }

    func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws(SQLiteAuthStoreError) -> Int {
        try await store.insertSessionRow(record, maximumPerUser: maximumPerUser)
    }

    func recordAudit() async throws(SQLiteAuthStoreError) {
        try await store.recordAudit()
    }

    /// Nothing to take: the transaction already holds SQLite's write lock.
    func lockFactors(of userID: String) {}

    func factorCount(of userID: String) async throws(SQLiteAuthStoreError) -> Int {
        let rows = try await store.execute(
            SQLiteAuthStore.factorCountQuery, [.text(userID)])
        return Int(rows.first?.column("n")?.integer ?? 0)
    }

    func hasPhoneFactor(id: String, userID: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await !store.execute("SELECT 1 FROM phone_factors WHERE id = ? AND user_id = ?", [.text(id), .text(userID)]).isEmpty
    }

    func hasPhoneFactor(number: String, userID: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await !store.execute("SELECT 1 FROM phone_factors WHERE user_id = ? AND phone_number = ?", [.text(userID), .text(number)]).isEmpty
    }

    func insertPhoneFactor(_ factor: PhoneFactorRecord) async throws(SQLiteAuthStoreError) {
        try await store.execute(
            "INSERT INTO phone_factors (\(SQLiteAuthStore.phoneFactorColumns)) VALUES (?, ?, ?, ?, ?)",
            [
                .text(factor.id), .text(factor.userID), factor.displayName.map { .text($0) } ?? .null, .integer(.init(factor.enrolledAt)),
                .text(factor.phoneNumber),
            ])
    }

    func lockedPhoneVerification(id: String) async throws(SQLiteAuthStoreError) -> PhoneVerificationRecord? {
        try await store.readPhoneVerification(id: id)
    }

    func keepPhoneVerification(_ kept: PhoneVerificationRecord?, id: String) async throws(SQLiteAuthStoreError) {
        if let kept {
            try await store.execute("UPDATE phone_verifications SET failed_attempts = ? WHERE id = ?", [.integer(kept.failedAttempts), .text(id)])
        } else {
            try await store.execute("DELETE FROM phone_verifications WHERE id = ?", [.text(id)])
        }
    }

    /// By a `DELETE … RETURNING`, so of two processes offering one code only the one whose
    /// statement deletes the row completes. The row is found by its digest through the primary
    /// key: the digest is keyed, so the time a lookup takes says nothing an attacker can turn
    /// toward a code.
    func spendRecoveryCode(userID: String, digests: [[UInt8]]) async throws(SQLiteAuthStoreError) -> Bool {
        for digest in digests {
            let deleted = try await store.execute(
                "DELETE FROM recovery_codes WHERE user_id = ? AND digest = ? RETURNING user_id", [.text(userID), .blob(ByteBuffer(bytes: digest))])
            if !deleted.isEmpty { return true }
        }
        return false
    }

    func updateAccount(id: String, changes: AccountChanges) async throws(SQLiteAuthStoreError) -> AccountUpdate {
        try await store.updateAccountRow(id: id, changes: changes)
    }

    /// Read under the transaction's write lock, which serialises writers.
    func lockedEmailAction(digest: [UInt8]) async throws(SQLiteAuthStoreError) -> EmailActionRecord? {
        let rows = try await store.execute(
            "SELECT \(StoredColumns.emailAction) FROM email_actions WHERE code_digest = ?", [.blob(ByteBuffer(bytes: digest))])
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).emailActionRecord() }
    }

    func removeEmailAction(digest: [UInt8]) async throws(SQLiteAuthStoreError) {
        try await store.execute("DELETE FROM email_actions WHERE code_digest = ?", [.blob(ByteBuffer(bytes: digest))])
    }

    /// The transaction holds SQLite's write lock, which locks the row.
    func lockedPasskeyFactor(enrollmentID: String, userID: String) async throws(SQLiteAuthStoreError) -> PasskeyRecord? {
        let rows = try await store.execute(
            "SELECT \(StoredColumns.passkey) FROM passkeys WHERE enrollment_id = ? AND user_id = ?", [.text(enrollmentID), .text(userID)])
        return try rows.first.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).passkeyRecord() }
    }

    func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws(SQLiteAuthStoreError) -> Bool {
        try await !store.execute(
            """
            UPDATE passkeys SET sign_count = ?, backed_up = ?, user_verified = max(user_verified, ?), last_used_at = ?
            WHERE credential_id = ? AND sign_count = ? RETURNING sign_count
            """,
            [
                .integer(.init(use.signCount)), .integer(use.isBackedUp ? 1 : 0), .integer(use.isUserVerified ? 1 : 0), .integer(.init(use.at)),
                .blob(ByteBuffer(bytes: credentialID)), .integer(.init(previousSignCount)),
            ]
        ).isEmpty
    }

    func insertFactor(_ factor: FactorRecord) async throws(SQLiteAuthStoreError) {
        try await store.execute(
            "INSERT INTO factors (\(SQLiteAuthStore.factorColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", try store.factorBinds(factor))
    }
}
