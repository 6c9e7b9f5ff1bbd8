internal import NIOCore
internal import OTPDurableStore
public import OTPAuthentication
internal import SQLiteNIO

extension SQLiteAuthStore {
    /// Committed before the message goes out, so a link that arrives finds its code.
    public func insertEmailAction(_ action: EmailActionRecord) async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            try await self.execute(
                "INSERT INTO email_actions (\(StoredColumns.emailAction)) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .blob(ByteBuffer(bytes: action.codeDigest)), .text(action.kind.rawValue), Self.optional(action.accountID),
                    .text(action.email), Self.optional(action.newEmail), .integer(.init(action.createdAt)), .integer(.init(action.expiresAt)),
                ])
        }
    }

    public func emailAction(digests: [[UInt8]]) async throws(SQLiteAuthStoreError) -> EmailActionRecord? {
        for digest in digests {
            let rows = try await execute(
                "SELECT \(StoredColumns.emailAction) FROM email_actions WHERE code_digest = ?", [.blob(ByteBuffer(bytes: digest))], on: .reader)
            if let row = rows.first { return try RowReader(row: row).emailActionRecord() }
        }
        return nil
    }

    public func deleteEmailAction(digest: [UInt8]) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            try await !self.execute(
                "DELETE FROM email_actions WHERE code_digest = ? RETURNING kind", [.blob(ByteBuffer(bytes: digest))]
            ).isEmpty
        }
    }

    /// One `BEGIN IMMEDIATE` transaction, so a code is used exactly once and its change made with it.
    public func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?, accountID: String?) async throws(SQLiteAuthStoreError)
        -> EmailActionCompletion
    {
        try await transaction { () throws(SQLiteAuthStoreError) -> EmailActionCompletion in
            try await SQLiteTransaction(store: self).completeEmailAction(digest: digest, at: time, changes: changes, accountID: accountID)
        }
    }
}
