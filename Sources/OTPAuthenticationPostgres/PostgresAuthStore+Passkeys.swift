internal import NIOCore
internal import OTPDurableStore
public import OTPAuthentication
internal import PostgresNIO

extension PostgresAuthStore {
    public func insertPasskeyChallenge(_ challenge: PasskeyChallengeRecord) async throws(PostgresAuthStoreError) {
        try await transaction("storing a passkey challenge", retry: .ifNotApplied) { connection in
            try await connection.execute(
                """
                INSERT INTO passkey_challenges (\(unescaped: StoredColumns.passkeyChallenge))
                VALUES (\(ByteBuffer(bytes: challenge.digest)), \(challenge.ceremony.rawValue), \(challenge.userID),
                        \(challenge.userHandle.map { ByteBuffer(bytes: $0) }), \(challenge.expiresAt))
                """)
        }
    }

    /// One `DELETE … RETURNING`: of two servers taking one challenge, the second finds no row.
    public func takePasskeyChallenge(digest: [UInt8]) async throws(PostgresAuthStoreError) -> PasskeyChallengeRecord? {
        let rows = try await transaction("taking a passkey challenge", retry: .ifNotApplied) { connection in
            try await connection.query(
                """
                DELETE FROM passkey_challenges WHERE digest = \(ByteBuffer(bytes: digest))
                RETURNING \(unescaped: StoredColumns.passkeyChallenge)
                """)
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.passkeyChallengeRecord() }.first
    }

    public func passkeys(userID: String) async throws(PostgresAuthStoreError) -> [PasskeyRecord] {
        let rows = try await reading("reading a user's passkeys") { connection in
            try await connection.query(
                "SELECT \(unescaped: StoredColumns.passkey) FROM passkeys WHERE user_id = \(userID) ORDER BY created_at, credential_id")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.passkeyRecord() }
    }

    public func passkey(credentialID: [UInt8]) async throws(PostgresAuthStoreError) -> PasskeyRecord? {
        let rows = try await reading("reading a passkey") { connection in
            try await connection.query(
                "SELECT \(unescaped: StoredColumns.passkey) FROM passkeys WHERE credential_id = \(ByteBuffer(bytes: credentialID))")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.passkeyRecord() }.first
    }

    /// Under the user's factor lock, which deleting the account takes too, so the count holds
    /// across servers and no passkey outlives its account; the credential id's uniqueness is the
    /// primary key's (`ON CONFLICT DO NOTHING`), across users.
    public func insertPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws(PostgresAuthStoreError) -> PasskeyInsertion {
        try await transaction("storing a passkey", retry: .ifNotApplied) { connection -> PasskeyInsertion in
            try await connection.lockFactors(of: passkey.userID)
            // A second factor needs no account of the service's, as a TOTP factor needs none.
            let count: Int
            if passkey.enrollmentID == nil {
                guard try await !connection.query("SELECT 1 FROM accounts WHERE id = \(passkey.userID)").isEmpty else { return .accountNotFound }
                let rows = try await connection.query("SELECT count(*) FROM passkeys WHERE user_id = \(passkey.userID) AND enrollment_id IS NULL")
                count = Int(try rows.records { row throws(PostgresAuthStoreError) in try row.integer("count", of: "a passkey count") }.first ?? 0)
            } else {
                count = try await connection.factorCount(of: passkey.userID)
            }
            let id = ByteBuffer(bytes: passkey.credentialID)
            guard try await connection.query("SELECT 1 FROM passkeys WHERE credential_id = \(id)").isEmpty else { return .credentialInUse }
            guard count < maximumPerUser else { return .limitReached }
            let inserted = try await connection.query(
                """
                INSERT INTO passkeys (\(unescaped: StoredColumns.passkey))
                VALUES (\(id), \(passkey.userID), \(ByteBuffer(bytes: passkey.userHandle)), \(passkey.name),
                        \(ByteBuffer(bytes: passkey.publicKey)), \(Int64(passkey.signCount)), \(passkey.isUserVerified),
                        \(passkey.isBackupEligible), \(passkey.isBackedUp), \(ByteBuffer(bytes: passkey.aaguid)), \(passkey.createdAt),
                        \(passkey.lastUsedAt), \(passkey.enrollmentID))
                ON CONFLICT (credential_id) DO NOTHING RETURNING user_id
                """)
            guard !inserted.isEmpty else { return .credentialInUse }
            try await connection.recordAudit()
            return .inserted
        }
    }

    public func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("recording a passkey's use", retry: .ifNotApplied) { connection in
            try await connection.recordPasskeyUse(credentialID: credentialID, previousSignCount: previousSignCount, use: use)
        }
    }

    public func renamePasskey(credentialID: [UInt8], userID: String, name: String) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("renaming a passkey", retry: .always) { connection in
            let renamed = try await !connection.query(
                """
                UPDATE passkeys SET name = \(name) WHERE credential_id = \(ByteBuffer(bytes: credentialID)) AND user_id = \(userID)
                RETURNING name
                """
            ).isEmpty
            if renamed { try await connection.recordAudit() }
            return renamed
        }
    }

    /// A second factor's failure counter goes with it.
    public func removePasskey(credentialID: [UInt8], userID: String) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("removing a passkey", retry: .ifNotApplied) { connection in
            let removed = try await connection.query(
                "DELETE FROM passkeys WHERE credential_id = \(ByteBuffer(bytes: credentialID)) AND user_id = \(userID) RETURNING enrollment_id")
            guard let row = removed.first else { return false }
            if let enrollmentID = try PostgresStoredRow(row: row).optionalText("enrollment_id", of: "a passkey") {
                try await connection.execute("DELETE FROM failure_counters WHERE key = \(enrollmentID)")
            }
            try await connection.recordAudit()
            return true
        }
    }

    /// One transaction with the factor's row locked as it is read, so of two servers completing
    /// at one count only one does.
    public func completeSignIn(
        credential: PendingSignInRecord, passkeyEnrollmentID enrollmentID: String, previousSignCount: UInt32, use: PasskeyUse, at time: Int64,
        session: SessionRecord, maximumSessionsPerUser: Int
    ) async throws(PostgresAuthStoreError) -> SignInCompletion {
        try await transaction("completing a passkey sign-in") { connection -> SignInCompletion in
            try await connection.completePasskeySignIn(
                credential: credential, enrollmentID: enrollmentID, previousSignCount: previousSignCount, use: use, at: time, session: session,
                maximumSessionsPerUser: maximumSessionsPerUser)
        }
    }
}
