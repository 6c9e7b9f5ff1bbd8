internal import NIOCore
internal import OTPDurableStore
public import OTPAuthentication
internal import PostgresNIO

extension PostgresAuthStore {
    /// Committed before the message goes out, so a link that arrives finds its code.
    public func insertEmailAction(_ action: EmailActionRecord) async throws(PostgresAuthStoreError) {
        try await transaction("storing an email action", retry: .ifNotApplied) { connection in
            try await connection.execute(
                """
                INSERT INTO email_actions (\(unescaped: StoredColumns.emailAction))
                VALUES (\(ByteBuffer(bytes: action.codeDigest)), \(action.kind.rawValue), \(action.accountID), \(action.email),
                        \(action.newEmail), \(action.createdAt), \(action.expiresAt))
                """)
        }
    }

    public func emailAction(digests: [[UInt8]]) async throws(PostgresAuthStoreError) -> EmailActionRecord? {
        let rows = try await reading("reading an email action") { connection in
            try await connection.query(
                """
                SELECT \(unescaped: StoredColumns.emailAction) FROM email_actions
                WHERE code_digest = ANY(\(digests.map { ByteBuffer(bytes: $0) }))
                """)
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.emailActionRecord() }.first
    }

    public func deleteEmailAction(digest: [UInt8]) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("deleting an email action", retry: .always) { connection in
            try await !connection.query("DELETE FROM email_actions WHERE code_digest = \(ByteBuffer(bytes: digest)) RETURNING kind").isEmpty
        }
    }

    /// One transaction with the action's row locked as it is read, so of two servers using one
    /// code only one completes (the other waits for the row, then finds it gone).
    public func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?, accountID: String?)
        async throws(PostgresAuthStoreError)
        -> EmailActionCompletion
    {
        try await transaction("using an email action") { connection -> EmailActionCompletion in
            try await connection.completeEmailAction(digest: digest, at: time, changes: changes, accountID: accountID)
        }
    }
}
