public import OTPEnrollment
internal import SQLiteNIO

extension SQLiteEnrollmentStore {
    static let accountColumns = "id, email, email_verified, display_name, photo_url, disabled, created_at, last_sign_in_at, password_hash"

    /// One `INSERT … ON CONFLICT DO NOTHING`: the primary key and the unique email column decide a
    /// race between processes; which one refused is read back in the same transaction.
    public func insertAccount(_ record: AccountRecord) async throws(SQLiteEnrollmentStoreError) -> AccountInsertion {
        try await transaction { () throws(SQLiteEnrollmentStoreError) -> AccountInsertion in
            let inserted = try await self.execute(
                "INSERT INTO accounts (\(Self.accountColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                [
                    .text(record.id), Self.optional(record.email), .integer(record.isEmailVerified ? 1 : 0), Self.optional(record.displayName),
                    Self.optional(record.photoURL), .integer(record.isDisabled ? 1 : 0), .integer(Int(record.createdAt)),
                    record.lastSignInAt.map { .integer(Int($0)) } ?? .null, Self.optional(record.passwordHash),
                ]
            )
            if !inserted.isEmpty { return .inserted }
            let sameID = try await self.execute("SELECT id FROM accounts WHERE id = ?", [.text(record.id)])
            return sameID.isEmpty ? .emailAlreadyInUse : .idAlreadyInUse
        }
    }

    public func account(id: String) async throws(SQLiteEnrollmentStoreError) -> AccountRecord? {
        let rows = try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(id)])
        }
        return try rows.first.map(accountRecord)
    }

    public func account(email: String) async throws(SQLiteEnrollmentStoreError) -> AccountRecord? {
        let rows = try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute("SELECT \(Self.accountColumns) FROM accounts WHERE email = ?", [.text(email)])
        }
        return try rows.first.map(accountRecord)
    }

    public func recordAccountSignIn(id: String, at time: Int64, passwordHash: String?) async throws(SQLiteEnrollmentStoreError) {
        try await transaction { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute(
                "UPDATE accounts SET last_sign_in_at = ?, password_hash = coalesce(?, password_hash) WHERE id = ?",
                [.integer(Int(time)), Self.optional(passwordHash), .text(id)])
        }
    }

    func accountRecord(_ row: SQLiteRow) throws(SQLiteEnrollmentStoreError) -> AccountRecord {
        let reader = RowReader(row: row)
        let id = try reader.text("id")
        return AccountRecord(
            id: id,
            email: row.column("email")?.string,
            isEmailVerified: try reader.integer("email_verified", of: id) != 0,
            displayName: row.column("display_name")?.string,
            photoURL: row.column("photo_url")?.string,
            isDisabled: try reader.integer("disabled", of: id) != 0,
            createdAt: try reader.integer("created_at", of: id),
            lastSignInAt: try reader.optionalInteger("last_sign_in_at", of: id),
            passwordHash: row.column("password_hash")?.string
        )
    }

    private static func optional(_ text: String?) -> SQLiteData {
        text.map { .text($0) } ?? .null
    }
}
