public import OTPAuthentication
internal import NIOCore
internal import PostgresNIO

extension PostgresAuthStore {
    public func replaceRecoveryCodes(userID: String, digests: [[UInt8]]) async throws(PostgresAuthStoreError) {
        let buffers = digests.map { ByteBuffer(bytes: $0) }
        try await transaction("replacing recovery codes", retry: .always) { connection in
            try await connection.execute("DELETE FROM recovery_codes WHERE user_id = \(userID)")
            for digest in buffers {
                try await connection.execute("INSERT INTO recovery_codes (user_id, digest) VALUES (\(userID), \(digest)) ON CONFLICT DO NOTHING")
            }
            try await connection.recordAudit()
        }
    }

    public func recoveryCodeCount(userID: String) async throws(PostgresAuthStoreError) -> Int {
        let rows = try await reading("counting recovery codes") { connection in
            try await connection.query("SELECT count(*) AS n FROM recovery_codes WHERE user_id = \(userID)")
        }
        return Int(try rows.first.map { row throws(PostgresAuthStoreError) in try PostgresStoredRow(row: row).integer("n", of: userID) } ?? 0)
    }

    /// One transaction; the code is spent as the connection spends one, so of two servers
    /// offering one code only one completes.
    public func completeSignIn(
        credential: PendingSignInRecord,
        recoveryCodeDigests digests: [[UInt8]],
        failureKey: String,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws(PostgresAuthStoreError) -> SignInCompletion {
        try await transaction("completing a recovery-code sign-in") { connection -> SignInCompletion in
            try await connection.completeRecoverySignIn(
                credential: credential, digests: digests, failureKey: failureKey, at: time, session: session,
                maximumSessionsPerUser: maximumSessionsPerUser)
        }
    }
}
