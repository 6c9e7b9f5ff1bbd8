public import OTPAuthentication
internal import OTPDurableStore
internal import PostgresNIO

extension PostgresAuthStore {
    /// One transaction in which the unique indexes decide: `INSERT … ON CONFLICT DO NOTHING` waits
    /// for a concurrent insertion of the same id, address or identity to commit and then inserts
    /// nothing, so of concurrent insertions exactly one stores its row. When a row is refused the
    /// reason is read in the checking order; an identity refused after its account was inserted
    /// rolls the account back.
    public func insertAccount(_ record: AccountRecord, identity: ProviderIdentity?) async throws(PostgresAuthStoreError)
        -> AccountInsertion
    {
        try await transaction("storing an account") { connection -> AccountInsertion in
            let inserted = try await connection.query(
                """
                INSERT INTO accounts (\(unescaped: StoredColumns.account))
                VALUES (\(record.id), \(record.email), \(record.isEmailVerified), \(record.displayName), \(record.photoURL),
                        \(record.isDisabled), \(record.createdAt), \(record.lastSignInAt), \(record.passwordHash),
                        \(record.tokensValidAfter), \(record.customAttributes))
                ON CONFLICT DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else {
                if try await !connection.query("SELECT id FROM accounts WHERE id = \(record.id)").isEmpty { return .idAlreadyInUse }
                if let identity, let owner = try await connection.identityOwner(identity) { return .identityInUse(accountID: owner) }
                return .emailAlreadyInUse
            }
            if let identity, try await !connection.insertIdentity(identity, accountID: record.id) {
                let owner = try await connection.identityOwner(identity) ?? record.id
                throw Abandoned(result: AccountInsertion.identityInUse(accountID: owner))
            }
            try await connection.recordAudit()
            return .inserted
        }
    }

    public func account(id: String) async throws(PostgresAuthStoreError) -> AccountRecord? {
        let rows = try await reading("reading an account") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.account) FROM accounts WHERE id = \(id)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.accountRecord() }.first
    }

    public func account(email: String) async throws(PostgresAuthStoreError) -> AccountRecord? {
        let rows = try await reading("reading an account") { connection in
            try await connection.query("SELECT \(unescaped: StoredColumns.account) FROM accounts WHERE email = \(email)")
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.accountRecord() }.first
    }

    /// One transaction: the account row is locked (links to one account take turns), the identity
    /// inserted with `ON CONFLICT DO NOTHING` (its primary key and the unique account–provider pair
    /// refuse a second owner or a second identity of the provider), and the address set by an
    /// `UPDATE` the unique email index refuses (SQLSTATE 23505) when another account has it, which
    /// rolls the link back.
    public func linkProviderIdentity(
        _ identity: ProviderIdentity, accountID: String, email: AccountEmailUpdate?
    ) async throws(PostgresAuthStoreError) -> ProviderLink {
        try await transaction("linking an identity") { connection -> ProviderLink in
            guard try await !connection.query("SELECT id FROM accounts WHERE id = \(accountID) FOR UPDATE").isEmpty else {
                return .accountNotFound
            }
            guard try await connection.insertIdentity(identity, accountID: accountID) else {
                if let owner = try await connection.identityOwner(identity) { return .identityInUse(accountID: owner) }
                return .providerAlreadyLinked
            }
            if let email {
                try await connection.setEmail(
                    email.address, isVerified: email.isVerified, accountID: accountID, refusal: ProviderLink.emailAlreadyInUse)
            }
            try await connection.recordAudit()
            return .linked
        }
    }

    /// One transaction: the account row is locked as its password hash is read, and the unique
    /// email index refuses an address another account has (SQLSTATE 23505).
    public func linkPassword(accountID: String, email: String, passwordHash: String) async throws(PostgresAuthStoreError) -> PasswordLink {
        try await transaction("linking a password") { connection -> PasswordLink in
            let rows = try await connection.query("SELECT \(unescaped: StoredColumns.account) FROM accounts WHERE id = \(accountID) FOR UPDATE")
            guard let row = rows.first else { return .accountNotFound }
            let account = try PostgresStoredRow(row: row).accountRecord()
            guard account.passwordHash == nil else { return .passwordAlreadyLinked }
            let isVerified = account.email == email && account.isEmailVerified
            try await connection.setEmail(email, isVerified: isVerified, accountID: accountID, refusal: PasswordLink.emailAlreadyInUse)
            try await connection.execute("UPDATE accounts SET password_hash = \(passwordHash) WHERE id = \(accountID)")
            try await connection.recordAudit()
            return .linked
        }
    }

    static let deleteFactorFailureCounters = StoredTables.deleteFailureCountersStatement(user: "$1")
    /// How many factors the user `$1` has, every kind together.
    static let factorCountQuery = StoredTables.countQuery(user: "$1")

    /// `sql` with the user id `userID` bound as its one parameter, `$1`.
    static func userBound(_ sql: String, _ userID: String) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(userID)
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// `password` clears the account's columns in one `UPDATE`; other providers delete the row.
    /// Under the user's factor lock, as every change of the user's factors, so that no enrollment
    /// finalized at the same moment outlives the account.
    public func deleteAccount(id: String) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("deleting an account", retry: .ifNotApplied) { connection in
            try await connection.lockFactors(of: id)
            guard try await !connection.query("DELETE FROM accounts WHERE id = \(id) RETURNING id").isEmpty else { return false }
            try await connection.execute(Self.userBound(Self.deleteFactorFailureCounters, id))
            for table in StoredTables.ofUser {
                try await connection.execute(Self.userBound("DELETE FROM \(table) WHERE user_id = $1", id))
            }
            // provider_identities go with the account (ON DELETE CASCADE).
            try await connection.recordAudit()
            return true
        }
    }

    public func unlinkProvider(_ providerID: String, accountID: String) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("unlinking a provider", retry: .ifNotApplied) { connection in
            let removed =
                if providerID == "password" {
                    try await !connection.query(
                        """
                        UPDATE accounts SET password_hash = NULL, email = NULL, email_verified = false
                        WHERE id = \(accountID) AND password_hash IS NOT NULL RETURNING id
                        """
                    ).isEmpty
                } else {
                    try await !connection.query(
                        "DELETE FROM provider_identities WHERE account_id = \(accountID) AND provider_id = \(providerID) RETURNING provider_id"
                    ).isEmpty
                }
            if removed { try await connection.recordAudit() }
            return removed
        }
    }

    public func accountID(providerID: String, providerUID: String) async throws(PostgresAuthStoreError) -> String? {
        try await reading("reading an identity's owner") { connection in
            try await connection.identityOwner(ProviderIdentity(providerID: providerID, providerUID: providerUID))
        }
    }

    public func providerIdentities(accountID: String) async throws(PostgresAuthStoreError) -> [ProviderIdentity] {
        let rows = try await reading("reading provider identities") { connection in
            try await connection.query(
                """
                SELECT \(unescaped: StoredColumns.providerIdentity) FROM provider_identities
                WHERE account_id = \(accountID) ORDER BY provider_id
                """)
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.providerIdentity(of: accountID) }
    }

    public func recordAccountSignIn(id: String, at time: Int64, rehash: PasswordRehash?) async throws(PostgresAuthStoreError) {
        try await transaction("recording a sign-in", retry: .always) { connection in
            try await connection.execute(
                """
                UPDATE accounts SET last_sign_in_at = \(time),
                password_hash = CASE WHEN password_hash = \(rehash?.verified) THEN \(rehash?.replacement) ELSE password_hash END
                WHERE id = \(id)
                """)
        }
    }

    public func setAccountDisabled(id: String, disabled: Bool) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("disabling an account", retry: .always) { connection in
            let updated = try await !connection.query("UPDATE accounts SET disabled = \(disabled) WHERE id = \(id) RETURNING id").isEmpty
            if updated { try await connection.recordAudit() }
            return updated
        }
    }

    public func updateAccountProfile(id: String, displayName: String?, photoURL: String?) async throws(PostgresAuthStoreError) -> Bool {
        try await transaction("updating a profile", retry: .always) { connection in
            try await !connection.query(
                "UPDATE accounts SET display_name = \(displayName), photo_url = \(photoURL) WHERE id = \(id) RETURNING id"
            ).isEmpty
        }
    }
}

extension PostgresAuthStore {
    /// One transaction: the account row is locked (updates of one account take turns), the row
    /// written back whole as `AccountChanges.applied(to:)` makes it, the unique email index
    /// refusing another account's address, the phone identity replaced with
    /// `ON CONFLICT DO NOTHING` and the unlinked providers' identities deleted; a refusal after the
    /// first write rolls everything back.
    public func updateAccount(id: String, changes: AccountChanges) async throws(PostgresAuthStoreError) -> AccountUpdate {
        try await transaction("updating an account") { connection -> AccountUpdate in
            let update = try await connection.updateAccountRow(id: id, changes: changes)
            if case .updated = update { try await connection.recordAudit() }
            return update
        }
    }

    /// The primary key's index serves the range and the order; `COLLATE "C"` compares bytes
    /// whatever the database's collation, as the other stores do.
    public func accounts(after id: String?, limit: Int) async throws(PostgresAuthStoreError) -> [AccountRecord] {
        let rows = try await reading("listing accounts") { connection in
            try await connection.query(
                """
                SELECT \(unescaped: StoredColumns.account) FROM accounts
                WHERE \(id)::text IS NULL OR id COLLATE "C" > \(id)::text COLLATE "C"
                ORDER BY id COLLATE "C" LIMIT \(max(limit, 0))
                """)
        }
        return try rows.records { row throws(PostgresAuthStoreError) in try row.accountRecord() }
    }
}

extension PostgresAuthStore.Connection {
    /// ``PostgresAuthStore/updateAccount(id:changes:)`` inside the caller's transaction; a refusal
    /// found after a write (a unique index) throws `Abandoned`, for the transaction to roll back.
    func updateAccountRow(id: String, changes: AccountChanges) async throws -> AccountUpdate {
        let rows = try await query("SELECT \(unescaped: StoredColumns.account) FROM accounts WHERE id = \(id) FOR UPDATE")
        guard let row = rows.first else { return .accountNotFound }
        let account = try PostgresStoredRow(row: row).accountRecord()
        let changed = changes.applied(to: account)
        do {
            try await execute(
                """
                UPDATE accounts SET email = \(changed.email), email_verified = \(changed.isEmailVerified),
                    display_name = \(changed.displayName), photo_url = \(changed.photoURL), disabled = \(changed.isDisabled),
                    password_hash = \(changed.passwordHash), tokens_valid_after = \(changed.tokensValidAfter),
                    custom_attributes = \(changed.customAttributes)
                WHERE id = \(id)
                """)
        } catch  where error.sqlState == "23505" {
            throw PostgresAuthStore.Abandoned(result: AccountUpdate.emailAlreadyInUse)
        }
        switch changes.phone {
        case .set(let identity):
            if let owner = try await identityOwner(identity), owner != id {
                throw PostgresAuthStore.Abandoned(result: AccountUpdate.identityInUse(accountID: owner))
            }
            try await execute(
                "DELETE FROM provider_identities WHERE account_id = \(id) AND provider_id = \(identity.providerID)")
            guard try await insertIdentity(identity, accountID: id) else {
                let owner = try await identityOwner(identity) ?? id
                throw PostgresAuthStore.Abandoned(result: AccountUpdate.identityInUse(accountID: owner))
            }
        case .remove:
            try await execute(
                "DELETE FROM provider_identities WHERE account_id = \(id) AND provider_id = \(PhoneAuthProvider.id)")
        case nil:
            break
        }
        for providerID in changes.unlinkedIdentityProviders {
            try await execute("DELETE FROM provider_identities WHERE account_id = \(id) AND provider_id = \(providerID)")
        }
        return .updated(changed)
    }

    func identityOwner(_ identity: ProviderIdentity) async throws -> String? {
        let rows = try await query(
            """
            SELECT account_id FROM provider_identities
            WHERE provider_id = \(identity.providerID) AND provider_uid = \(identity.providerUID)
            """)
        return try rows.first.map { try PostgresStoredRow(row: $0).text("account_id", of: identity.providerID) }
    }

    /// Inserts the identity unless a unique index refuses it: whether it was inserted.
    func insertIdentity(_ identity: ProviderIdentity, accountID: String) async throws -> Bool {
        try await !query(
            """
            INSERT INTO provider_identities (provider_id, provider_uid, account_id, email, display_name, phone_number)
            VALUES (\(identity.providerID), \(identity.providerUID), \(accountID), \(identity.email), \(identity.displayName),
                    \(identity.phoneNumber))
            ON CONFLICT DO NOTHING RETURNING provider_id
            """
        ).isEmpty
    }

    /// Sets the account's address; when the unique email index refuses it, abandons the
    /// transaction with `refusal`.
    func setEmail<Refusal: Sendable>(_ address: String, isVerified: Bool, accountID: String, refusal: Refusal) async throws {
        do {
            try await execute("UPDATE accounts SET email = \(address), email_verified = \(isVerified) WHERE id = \(accountID)")
        } catch  where error.sqlState == "23505" {
            throw PostgresAuthStore.Abandoned(result: refusal)
        }
    }
}
