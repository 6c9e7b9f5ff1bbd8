public import OTPAuthentication
public import OTPSealing
internal import OTPCore
internal import OTPDurableStore
internal import SQLiteNIO

extension SQLiteAuthStore {
    /// The store's own code digest key, made at random when the database is created and kept in it
    /// sealed like any secret: digests outlive the process, a copy of the file cannot test guesses
    /// without the sealing key, and a key rotation re-seals this key with the rest, so recovery
    /// codes survive it.
    public var codeDigestKeys: SecretSealer? { codeDigestSealer.withLock { $0 } }

    /// The record id of the code digest key in `store_secrets`.
    static let codeDigestKeyRecordID = StoreSecrets.codeDigestKeyRecordID

    /// Reads the code digest key, creating it on first use (in one transaction, so two processes
    /// opening a new file agree on one key).
    func loadCodeDigestKey() async throws(SQLiteAuthStoreError) -> SecretSealer {
        let id = Self.codeDigestKeyRecordID
        let secret = try await transaction { () throws(SQLiteAuthStoreError) -> OTPSecret in
            let rows = try await self.execute("SELECT id, sealed_secret FROM store_secrets WHERE id = ?", [.text(id)])
            if let row = rows.first {
                return try self.openSecret(RowReader(row: row), recordID: id)
            }
            let fresh: OTPSecret
            do {
                fresh = try StoreSecrets.newCodeDigestKey()
            } catch {
                throw .database(path: self.path, message: "could not generate the code digest key: \(error)")
            }
            try await self.execute(
                "INSERT INTO store_secrets (id, sealed_secret, key_id) VALUES (?, ?, ?)", [.text(id)] + (try self.sealed(fresh, recordID: id)))
            return fresh
        }
        do throws(SealingError) {
            return try StoreSecrets.codeDigestSealer(secret)
        } catch {
            throw .unusableSecret(recordID: id, error)
        }
    }

    public func replaceRecoveryCodes(userID: String, digests: [[UInt8]]) async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            try await self.execute("DELETE FROM recovery_codes WHERE user_id = ?", [.text(userID)])
            for digest in digests {
                try await self.execute(
                    "INSERT OR IGNORE INTO recovery_codes (user_id, digest) VALUES (?, ?)", [.text(userID), .blob(ByteBuffer(bytes: digest))])
            }
            try await self.recordAudit()
        }
    }

    public func recoveryCodeCount(userID: String) async throws(SQLiteAuthStoreError) -> Int {
        let rows = try await execute("SELECT count(*) AS n FROM recovery_codes WHERE user_id = ?", [.text(userID)], on: .reader)
        return Int(rows.first?.column("n")?.integer ?? 0)
    }

    /// One `BEGIN IMMEDIATE` transaction; the code is spent by a `DELETE … RETURNING`, so of two
    /// processes offering one code only one completes.
    public func completeSignIn(
        credential: PendingSignInRecord,
        recoveryCodeDigests digests: [[UInt8]],
        failureKey: String,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(SQLiteAuthStoreError) -> SignInCompletion {
        try await transaction { () throws(SQLiteAuthStoreError) -> SignInCompletion in
            try await SQLiteTransaction(store: self).completeRecoverySignIn(
                credential: credential, digests: digests, failureKey: failureKey, at: time, session: session,
                maximumSessionsPerUser: maximumSessionsPerUser)
        }
    }
}
