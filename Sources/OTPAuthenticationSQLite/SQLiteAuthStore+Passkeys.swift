internal import NIOCore
internal import OTPDurableStore
public import OTPAuthentication
internal import SQLiteNIO

extension SQLiteAuthStore {
    public func insertPasskeyChallenge(_ challenge: PasskeyChallengeRecord) async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            try await self.execute(
                "INSERT INTO passkey_challenges (\(StoredColumns.passkeyChallenge)) VALUES (?, ?, ?, ?, ?)",
                [
                    .blob(ByteBuffer(bytes: challenge.digest)), .text(challenge.ceremony.rawValue), Self.optional(challenge.userID),
                    challenge.userHandle.map { .blob(ByteBuffer(bytes: $0)) } ?? .null, .integer(.init(challenge.expiresAt)),
                ])
        }
    }

    public func takePasskeyChallenge(digest: [UInt8]) async throws(SQLiteAuthStoreError) -> PasskeyChallengeRecord? {
        try await transaction { () throws(SQLiteAuthStoreError) -> PasskeyChallengeRecord? in
            try await self.execute(
                "DELETE FROM passkey_challenges WHERE digest = ? RETURNING \(StoredColumns.passkeyChallenge)", [.blob(ByteBuffer(bytes: digest))]
            ).first.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).passkeyChallengeRecord() }
        }
    }

    public func passkeys(userID: String) async throws(SQLiteAuthStoreError) -> [PasskeyRecord] {
        var passkeys: [PasskeyRecord] = []
        for row in try await execute(
            "SELECT \(StoredColumns.passkey) FROM passkeys WHERE user_id = ? ORDER BY created_at, credential_id", [.text(userID)], on: .reader)
        {
            passkeys.append(try RowReader(row: row).passkeyRecord())
        }
        return passkeys
    }

    public func passkey(credentialID: [UInt8]) async throws(SQLiteAuthStoreError) -> PasskeyRecord? {
        try await execute(
            "SELECT \(StoredColumns.passkey) FROM passkeys WHERE credential_id = ?", [.blob(ByteBuffer(bytes: credentialID))], on: .reader
        ).first.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).passkeyRecord() }
    }

    /// One `BEGIN IMMEDIATE` transaction: the account, the id and the user's count are read by
    /// the one writer that then inserts.
    public func insertPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws(SQLiteAuthStoreError) -> PasskeyInsertion {
        try await transaction { () throws(SQLiteAuthStoreError) -> PasskeyInsertion in
            let user = SQLiteData.text(passkey.userID)
            // A second factor needs no account of the service's, as a TOTP factor needs none.
            if passkey.enrollmentID == nil {
                guard try await !self.execute("SELECT 1 AS found FROM accounts WHERE id = ?", [user]).isEmpty else { return .accountNotFound }
            }
            let id = SQLiteData.blob(ByteBuffer(bytes: passkey.credentialID))
            guard try await self.execute("SELECT 1 AS found FROM passkeys WHERE credential_id = ?", [id]).isEmpty else { return .credentialInUse }
            let counted =
                passkey.enrollmentID == nil
                ? "SELECT count(*) AS n FROM passkeys WHERE user_id = ?1 AND enrollment_id IS NULL" : Self.factorCountQuery
            let count = try await self.execute(counted, [user]).first?.column("n")?.integer ?? 0
            guard count < maximumPerUser else { return .limitReached }
            try await self.execute(
                "INSERT INTO passkeys (\(StoredColumns.passkey)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    id, user, .blob(ByteBuffer(bytes: passkey.userHandle)), .text(passkey.name), .blob(ByteBuffer(bytes: passkey.publicKey)),
                    .integer(.init(passkey.signCount)), .integer(passkey.isUserVerified ? 1 : 0), .integer(passkey.isBackupEligible ? 1 : 0),
                    .integer(passkey.isBackedUp ? 1 : 0), .blob(ByteBuffer(bytes: passkey.aaguid)), .integer(.init(passkey.createdAt)),
                    passkey.lastUsedAt.map { .integer(.init($0)) } ?? .null, Self.optional(passkey.enrollmentID),
                ])
            try await self.recordAudit()
            return .inserted
        }
    }

    public func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            try await SQLiteTransaction(store: self).recordPasskeyUse(credentialID: credentialID, previousSignCount: previousSignCount, use: use)
        }
    }

    public func renamePasskey(credentialID: [UInt8], userID: String, name: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            let renamed = try await !self.execute(
                "UPDATE passkeys SET name = ? WHERE credential_id = ? AND user_id = ? RETURNING name",
                [.text(name), .blob(ByteBuffer(bytes: credentialID)), .text(userID)]
            ).isEmpty
            if renamed { try await self.recordAudit() }
            return renamed
        }
    }

    /// A second factor's failure counter goes with it.
    public func removePasskey(credentialID: [UInt8], userID: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            let removed = try await self.execute(
                "DELETE FROM passkeys WHERE credential_id = ? AND user_id = ? RETURNING enrollment_id",
                [.blob(ByteBuffer(bytes: credentialID)), .text(userID)])
            guard let row = removed.first else { return false }
            if let enrollmentID = try RowReader(row: row).optionalText("enrollment_id", of: "a passkey") {
                try await self.execute("DELETE FROM failure_counters WHERE key = ?", [.text(enrollmentID)])
            }
            try await self.recordAudit()
            return true
        }
    }

    /// One `BEGIN IMMEDIATE` transaction, so of two processes completing at one count only one does.
    public func completeSignIn(
        credential: PendingSignInRecord, passkeyEnrollmentID enrollmentID: String, previousSignCount: UInt32, use: PasskeyUse, at time: Int64,
        session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws(SQLiteAuthStoreError) -> SignInCompletion {
        try await transaction { () throws(SQLiteAuthStoreError) -> SignInCompletion in
            try await SQLiteTransaction(store: self).completePasskeySignIn(
                credential: credential, enrollmentID: enrollmentID, previousSignCount: previousSignCount, use: use, at: time, session: session,
                maximumSessionsPerUser: maximumSessionsPerUser)
        }
    }
}
