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

    /// The account's existence, the identity's owner and the provider's slot on the account are
    /// read and the row inserted in one `BEGIN IMMEDIATE` transaction; the primary key and the
    /// unique (account, provider) pair would refuse a second row anyway.
    public func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String) async throws(SQLiteEnrollmentStoreError) -> ProviderLink {
        try await transaction { () throws(SQLiteEnrollmentStoreError) -> ProviderLink in
            let owner = try await self.execute(
                "SELECT account_id FROM provider_identities WHERE provider_id = ? AND provider_uid = ?",
                [.text(identity.providerID), .text(identity.providerUID)])
            if let owner = owner.first?.column("account_id")?.string { return .identityInUse(accountID: owner) }
            guard try await !self.execute("SELECT id FROM accounts WHERE id = ?", [.text(accountID)]).isEmpty else { return .accountNotFound }
            let inserted = try await self.execute(
                """
                INSERT INTO provider_identities (provider_id, provider_uid, account_id, email, display_name, phone_number)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING provider_id
                """,
                [
                    .text(identity.providerID), .text(identity.providerUID), .text(accountID), Self.optional(identity.email),
                    Self.optional(identity.displayName), Self.optional(identity.phoneNumber),
                ])
            return inserted.isEmpty ? .providerAlreadyLinked : .linked
        }
    }

    public func unlinkProvider(_ providerID: String, accountID: String) async throws(SQLiteEnrollmentStoreError) -> Bool {
        try await transaction { () throws(SQLiteEnrollmentStoreError) -> Bool in
            try await !self.execute(
                "DELETE FROM provider_identities WHERE account_id = ? AND provider_id = ? RETURNING provider_id",
                [.text(accountID), .text(providerID)]
            ).isEmpty
        }
    }

    public func accountID(providerID: String, providerUID: String) async throws(SQLiteEnrollmentStoreError) -> String? {
        let rows = try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute(
                "SELECT account_id FROM provider_identities WHERE provider_id = ? AND provider_uid = ?", [.text(providerID), .text(providerUID)])
        }
        return rows.first?.column("account_id")?.string
    }

    public func providerIdentities(accountID: String) async throws(SQLiteEnrollmentStoreError) -> [ProviderIdentity] {
        let rows = try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute(
                "SELECT provider_id, provider_uid, email, display_name, phone_number FROM provider_identities WHERE account_id = ? ORDER BY provider_id",
                [.text(accountID)])
        }
        var identities: [ProviderIdentity] = []
        for row in rows {
            let reader = RowReader(row: row)
            identities.append(
                ProviderIdentity(
                    providerID: try reader.text("provider_id", of: accountID), providerUID: try reader.text("provider_uid", of: accountID),
                    email: row.column("email")?.string, displayName: row.column("display_name")?.string,
                    phoneNumber: row.column("phone_number")?.string))
        }
        return identities
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
