public import OTPAuthentication
internal import OTPDurableStore
internal import SQLiteNIO

extension SQLiteAuthStore {
    static let accountColumns = StoredColumns.account

    /// One `BEGIN IMMEDIATE` transaction: the id and the identity's owner are read first, then
    /// one `INSERT … ON CONFLICT DO NOTHING` lets the unique email column refuse the account, and
    /// the identity row is inserted after it; the primary keys would refuse a second account or
    /// identity anyway.
    public func insertAccount(_ record: AccountRecord, identity: ProviderIdentity?) async throws(SQLiteAuthStoreError)
        -> AccountInsertion
    {
        try await transaction { () throws(SQLiteAuthStoreError) -> AccountInsertion in
            guard try await !self.accountExists(record.id) else { return .idAlreadyInUse }
            if let identity, let owner = try await self.identityOwner(identity) { return .identityInUse(accountID: owner) }
            let inserted = try await self.execute(
                "INSERT INTO accounts (\(Self.accountColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
                [
                    .text(record.id), Self.optional(record.email), .integer(record.isEmailVerified ? 1 : 0), Self.optional(record.displayName),
                    Self.optional(record.photoURL), .integer(record.isDisabled ? 1 : 0), .integer(Int(record.createdAt)),
                    record.lastSignInAt.map { .integer(Int($0)) } ?? .null, Self.optional(record.passwordHash),
                    record.tokensValidAfter.map { .integer(Int($0)) } ?? .null, Self.optional(record.customAttributes),
                ]
            )
            guard !inserted.isEmpty else { return .emailAlreadyInUse }
            if let identity {
                // The owner was read above under the write lock, so this insertion conflicts with
                // nothing; should it, the error rolls the account back with it.
                try await self.insertIdentity(identity, accountID: record.id)
            }
            try await self.recordAudit()
            return .inserted
        }
    }

    public func account(id: String) async throws(SQLiteAuthStoreError) -> AccountRecord? {
        let rows = try await execute("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(id)], on: .reader)
        return try rows.first.map(accountRecord)
    }

    public func account(email: String) async throws(SQLiteAuthStoreError) -> AccountRecord? {
        let rows = try await execute("SELECT \(Self.accountColumns) FROM accounts WHERE email = ?", [.text(email)], on: .reader)
        return try rows.first.map(accountRecord)
    }

    /// The account's existence, the identity's owner, the provider's slot on the account and the
    /// address's owner are read and the rows written in one `BEGIN IMMEDIATE` transaction; the
    /// primary key, the unique (account, provider) pair and the unique email column would refuse
    /// a second row or address anyway.
    public func linkProviderIdentity(
        _ identity: ProviderIdentity, accountID: String, email: AccountEmailUpdate?
    ) async throws(SQLiteAuthStoreError) -> ProviderLink {
        try await transaction { () throws(SQLiteAuthStoreError) -> ProviderLink in
            guard try await self.accountExists(accountID) else { return .accountNotFound }
            if let owner = try await self.identityOwner(identity) { return .identityInUse(accountID: owner) }
            let linked = try await self.execute(
                "SELECT provider_id FROM provider_identities WHERE account_id = ? AND provider_id = ?",
                [.text(accountID), .text(identity.providerID)])
            guard linked.isEmpty else { return .providerAlreadyLinked }
            if let email {
                guard try await self.setEmail(email.address, isVerified: email.isVerified, accountID: accountID) else {
                    return .emailAlreadyInUse
                }
            }
            try await self.insertIdentity(identity, accountID: accountID)
            try await self.recordAudit()
            return .linked
        }
    }

    /// The account's password hash and the address's owner are read and the account updated in one
    /// `BEGIN IMMEDIATE` transaction; the unique email column would refuse the address anyway.
    public func linkPassword(accountID: String, email: String, passwordHash: String) async throws(SQLiteAuthStoreError) -> PasswordLink {
        try await transaction { () throws(SQLiteAuthStoreError) -> PasswordLink in
            let rows = try await self.execute("SELECT email, email_verified, password_hash FROM accounts WHERE id = ?", [.text(accountID)])
            guard let row = rows.first else { return .accountNotFound }
            guard row.column("password_hash")?.string == nil else { return .passwordAlreadyLinked }
            let isVerified = row.column("email")?.string == email && (row.column("email_verified")?.integer ?? 0) != 0
            guard try await self.setEmail(email, isVerified: isVerified, accountID: accountID) else { return .emailAlreadyInUse }
            try await self.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", [.text(passwordHash), .text(accountID)])
            try await self.recordAudit()
            return .linked
        }
    }

    /// `password` clears the account's columns in one `UPDATE`; other providers delete the row.
    public func deleteAccount(id: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            guard try await !self.execute("DELETE FROM accounts WHERE id = ? RETURNING id", [.text(id)]).isEmpty else { return false }
            try await self.execute(Self.deleteFactorFailureCounters, [.text(id)])
            for table in StoredTables.ofUser {
                try await self.execute("DELETE FROM \(table) WHERE user_id = ?", [.text(id)])
            }
            try await self.execute("DELETE FROM provider_identities WHERE account_id = ?", [.text(id)])
            try await self.recordAudit()
            return true
        }
    }

    static let deleteFactorFailureCounters = StoredTables.deleteFailureCountersStatement(user: "?1")
    /// How many factors the user `?1` has, every kind together.
    static let factorCountQuery = StoredTables.countQuery(user: "?1")

    public func unlinkProvider(_ providerID: String, accountID: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            let removed =
                if providerID == "password" {
                    try await !self.execute(
                        """
                        UPDATE accounts SET password_hash = NULL, email = NULL, email_verified = 0
                        WHERE id = ? AND password_hash IS NOT NULL RETURNING id
                        """,
                        [.text(accountID)]
                    ).isEmpty
                } else {
                    try await !self.execute(
                        "DELETE FROM provider_identities WHERE account_id = ? AND provider_id = ? RETURNING provider_id",
                        [.text(accountID), .text(providerID)]
                    ).isEmpty
                }
            if removed { try await self.recordAudit() }
            return removed
        }
    }

    public func accountID(providerID: String, providerUID: String) async throws(SQLiteAuthStoreError) -> String? {
        let rows = try await execute(
            "SELECT account_id FROM provider_identities WHERE provider_id = ? AND provider_uid = ?", [.text(providerID), .text(providerUID)],
            on: .reader)
        return rows.first?.column("account_id")?.string
    }

    public func providerIdentities(accountID: String) async throws(SQLiteAuthStoreError) -> [ProviderIdentity] {
        let rows = try await execute(
            "SELECT \(StoredColumns.providerIdentity) FROM provider_identities WHERE account_id = ? ORDER BY provider_id", [.text(accountID)],
            on: .reader)
        return try rows.map { row throws(SQLiteAuthStoreError) in try RowReader(row: row).providerIdentity(of: accountID) }
    }

    public func recordAccountSignIn(id: String, at time: Int64, rehash: PasswordRehash?) async throws(SQLiteAuthStoreError) {
        try await transaction { () throws(SQLiteAuthStoreError) in
            try await self.execute(
                "UPDATE accounts SET last_sign_in_at = ?1, password_hash = CASE WHEN password_hash = ?2 THEN ?3 ELSE password_hash END WHERE id = ?4",
                [.integer(Int(time)), Self.optional(rehash?.verified), Self.optional(rehash?.replacement), .text(id)])
        }
    }

    public func setAccountDisabled(id: String, disabled: Bool) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            let updated = try await !self.execute(
                "UPDATE accounts SET disabled = ? WHERE id = ? RETURNING id", [.integer(disabled ? 1 : 0), .text(id)]
            ).isEmpty
            if updated { try await self.recordAudit() }
            return updated
        }
    }

    public func updateAccountProfile(id: String, displayName: String?, photoURL: String?) async throws(SQLiteAuthStoreError) -> Bool {
        try await transaction { () throws(SQLiteAuthStoreError) -> Bool in
            try await !self.execute(
                "UPDATE accounts SET display_name = ?, photo_url = ? WHERE id = ? RETURNING id",
                [Self.optional(displayName), Self.optional(photoURL), .text(id)]
            ).isEmpty
        }
    }

    /// One `BEGIN IMMEDIATE` transaction: the account is read, the address's and the identity's
    /// owners checked under the write lock, then the whole row written back as
    /// `AccountChanges.applied(to:)` makes it, the phone identity replaced and the unlinked
    /// providers' identities deleted.
    public func updateAccount(id: String, changes: AccountChanges) async throws(SQLiteAuthStoreError) -> AccountUpdate {
        try await transaction { () throws(SQLiteAuthStoreError) -> AccountUpdate in
            let update = try await self.updateAccountRow(id: id, changes: changes)
            if case .updated = update { try await self.recordAudit() }
            return update
        }
    }

    /// ``updateAccount(id:changes:)`` inside the caller's transaction: every check comes before
    /// the first write, so a refusal writes nothing.
    func updateAccountRow(id: String, changes: AccountChanges) async throws(SQLiteAuthStoreError) -> AccountUpdate {
        guard let row = try await self.execute("SELECT \(Self.accountColumns) FROM accounts WHERE id = ?", [.text(id)]).first else {
            return .accountNotFound
        }
        let account = try self.accountRecord(row)
        if let email = changes.email,
            try await !self.execute("SELECT id FROM accounts WHERE email = ? AND id <> ?", [.text(email), .text(id)]).isEmpty
        {
            return .emailAlreadyInUse
        }
        if case .set(let identity) = changes.phone, let owner = try await self.identityOwner(identity), owner != id {
            return .identityInUse(accountID: owner)
        }
        let changed = changes.applied(to: account)
        try await self.execute(
            """
            UPDATE accounts SET email = ?, email_verified = ?, display_name = ?, photo_url = ?, disabled = ?, password_hash = ?,
                tokens_valid_after = ?, custom_attributes = ?
            WHERE id = ?
            """,
            [
                Self.optional(changed.email), .integer(changed.isEmailVerified ? 1 : 0), Self.optional(changed.displayName),
                Self.optional(changed.photoURL), .integer(changed.isDisabled ? 1 : 0), Self.optional(changed.passwordHash),
                changed.tokensValidAfter.map { .integer(Int($0)) } ?? .null, Self.optional(changed.customAttributes), .text(id),
            ])
        switch changes.phone {
        case .set(let identity):
            try await self.execute(
                "DELETE FROM provider_identities WHERE account_id = ? AND provider_id = ?", [.text(id), .text(identity.providerID)])
            try await self.insertIdentity(identity, accountID: id)
        case .remove:
            try await self.execute(
                "DELETE FROM provider_identities WHERE account_id = ? AND provider_id = ?", [.text(id), .text(PhoneAuthProvider.id)])
        case nil:
            break
        }
        for providerID in changes.unlinkedIdentityProviders {
            try await self.execute("DELETE FROM provider_identities WHERE account_id = ? AND provider_id = ?", [.text(id), .text(providerID)])
        }
        return .updated(changed)
    }

    /// The primary key's index serves the range and the order; `BINARY` collation compares the
    /// UTF-8 bytes.
    public func accounts(after id: String?, limit: Int) async throws(SQLiteAuthStoreError) -> [AccountRecord] {
        let rows = try await execute(
            "SELECT \(Self.accountColumns) FROM accounts WHERE ? IS NULL OR id > ? ORDER BY id LIMIT ?",
            [Self.optional(id), Self.optional(id), .integer(max(limit, 0))], on: .reader)
        return try rows.map { row throws(SQLiteAuthStoreError) in try accountRecord(row) }
    }

    // The helpers below run in the caller's transaction.

    private func accountExists(_ id: String) async throws(SQLiteAuthStoreError) -> Bool {
        try await !execute("SELECT id FROM accounts WHERE id = ?", [.text(id)]).isEmpty
    }

    func identityOwner(_ identity: ProviderIdentity) async throws(SQLiteAuthStoreError) -> String? {
        try await execute(
            "SELECT account_id FROM provider_identities WHERE provider_id = ? AND provider_uid = ?",
            [.text(identity.providerID), .text(identity.providerUID)]
        ).first?.column("account_id")?.string
    }

    func insertIdentity(_ identity: ProviderIdentity, accountID: String) async throws(SQLiteAuthStoreError) {
        try await execute(
            """
            INSERT INTO provider_identities (provider_id, provider_uid, account_id, email, display_name, phone_number)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                .text(identity.providerID), .text(identity.providerUID), .text(accountID), Self.optional(identity.email),
                Self.optional(identity.displayName), Self.optional(identity.phoneNumber),
            ])
    }

    /// Sets the existing account's address when no other account has it: `false`, changing
    /// nothing, otherwise. Read first, under the transaction's write lock, so the unique column
    /// never refuses the `UPDATE`.
    private func setEmail(_ address: String, isVerified: Bool, accountID: String) async throws(SQLiteAuthStoreError) -> Bool {
        let owners = try await execute("SELECT id FROM accounts WHERE email = ? AND id <> ?", [.text(address), .text(accountID)])
        guard owners.isEmpty else { return false }
        try await execute(
            "UPDATE accounts SET email = ?, email_verified = ? WHERE id = ?", [.text(address), .integer(isVerified ? 1 : 0), .text(accountID)])
        return true
    }

    func accountRecord(_ row: SQLiteRow) throws(SQLiteAuthStoreError) -> AccountRecord {
        try RowReader(row: row).accountRecord()
    }

    static func optional(_ text: String?) -> SQLiteData {
        text.map { .text($0) } ?? .null
    }
}
