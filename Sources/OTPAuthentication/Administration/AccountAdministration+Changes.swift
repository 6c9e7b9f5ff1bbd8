extension AccountAdministration {
    /// Changes account `id` as an administrator does (Firebase's admin `accounts:update`,
    /// firebase-admin's `update_user`), all in one store operation. A new password, or a
    /// `tokensValidAfter`, also ends every session of the user, so that its refresh tokens stop
    /// working (firebase-admin's `revoke_refresh_tokens`); a new password revokes tokens from now.
    ///
    /// - Parameters:
    ///   - id: The account.
    ///   - email: A new address, normalized and unique among accounts; unverified unless
    ///     `isEmailVerified` says otherwise.
    ///   - password: A new password, hashed as a user's own; the account needs an address.
    ///   - displayName: The display name, set or removed.
    ///   - photoURL: The photo URL, set or removed.
    ///   - phoneNumber: The phone number (the `phone` identity), parsed into E.164 and unique among
    ///     accounts, or removed.
    ///   - isEmailVerified: Whether the address counts as verified.
    ///   - isDisabled: Whether the account is disabled.
    ///   - tokensValidAfter: Tokens issued before this time (Unix seconds) are revoked.
    ///   - unlinkedProviders: Providers to unlink (firebase-admin's `providers_to_delete`), each
    ///     one the account has: `password` removes the password with the address, any other id
    ///     the identity of that provider, as ``AccountChanges/unlinkedProviders`` says.
    ///   - customAttributes: The custom claims (one JSON object, serialized), set or removed; the
    ///     caller checks what they hold.
    /// - Returns: What the store did: the account as it is now, or why nothing changed.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/weakPassword``,
    ///   ``AuthErrorCode/invalidPhoneNumber``, ``AuthErrorCode/noSuchProvider`` for a provider the
    ///   account does not have, or ``AuthErrorCode/operationNotAllowed`` for a password on an account
    ///   without an address, or for unlinking the password or phone while setting it; nothing is
    ///   written then.
    public func updateAccount(
        id: String, email: String? = nil, password: String? = nil, displayName: AttributeChange<String>? = nil,
        photoURL: AttributeChange<String>? = nil, phoneNumber: AttributeChange<String>? = nil, isEmailVerified: Bool? = nil,
        isDisabled: Bool? = nil, tokensValidAfter: Int64? = nil, unlinkedProviders: Set<String> = [],
        customAttributes: AttributeChange<String>? = nil
    ) async throws(AuthError) -> AccountUpdate {
        if unlinkedProviders.contains(EmailAuthProvider.id), email != nil || password != nil {
            throw AuthError(.operationNotAllowed, "the update both sets the address or password and unlinks the password: send one")
        }
        if unlinkedProviders.contains(PhoneAuthProvider.id), phoneNumber != nil {
            throw AuthError(.operationNotAllowed, "the update both sets the phone number and unlinks the phone: send one")
        }
        var changes = AccountChanges(
            email: try email.map { (email) throws(AuthError) in try service.normalizedEmail(email) }, isEmailVerified: isEmailVerified,
            displayName: displayName, photoURL: photoURL, isDisabled: isDisabled, tokensValidAfter: tokensValidAfter,
            customAttributes: customAttributes)
        switch phoneNumber {
        case .set(let text):
            let number = try service.parsePhoneNumber(text)
            changes.phone = .set(ProviderIdentity(providerID: PhoneAuthProvider.id, providerUID: number, phoneNumber: number))
        case .remove: changes.phone = .remove
        case nil: break
        }
        if password != nil || !unlinkedProviders.isEmpty {
            guard let account = try await service.storeCall("reading an account", { try await service.store.account(id: id) }) else {
                return .accountNotFound
            }
            if !unlinkedProviders.isEmpty {
                let linked = Set(try await details(account).providerData.map(\.providerID))
                if let missing = unlinkedProviders.subtracting(linked).sorted().first {
                    let has = linked.isEmpty ? "none" : linked.sorted().joined(separator: ", ")
                    throw AuthError(
                        .noSuchProvider,
                        "the account has no \(missing.prefix(60)) provider to unlink: it has \(has), as its providerUserInfo lists")
                }
                changes.unlinkedProviders = unlinkedProviders
            }
            if let password {
                // The store decides, but what it would refuse is refused before the hash's cost.
                try service.checkNewPassword(password)
                guard changes.email != nil || account.email != nil else {
                    throw AuthError(.operationNotAllowed, "a password needs an email address: give both")
                }
                if let address = changes.email,
                    let owner = try await service.storeCall("reading an account", { try await service.store.account(email: address) }), owner.id != id
                {
                    return .emailAlreadyInUse
                }
                changes.passwordHash = try await service.newPasswordHash(password)
                changes.tokensValidAfter = max(changes.tokensValidAfter ?? 0, service.clock.now())
            }
        }
        let events = service.auditEvents(for: changes, userID: id, actor: .system)
        let update = try await service.storeCall("updating an account", recording: events) {
            try await service.store.updateAccount(id: id, changes: changes)
        }
        guard case .updated = update else { return update }
        if changes.tokensValidAfter != nil {
            let event = service.auditEvent(.sessionsRevoked, userID: id, actor: .system)
            let ended = try await service.storeCall("revoking sessions", recording: event) {
                try await service.store.removeSessions(userID: id, except: nil)
            }
            service.logger.info("tokens revoked by an administrator", metadata: ["user": "\(id)", "sessions": "\(ended)"])
        } else {
            service.logger.info("account updated by an administrator", metadata: ["user": "\(id)"])
        }
        return update
    }

    /// One page of every account with its `providerData`, in the order of the ids' UTF-8 bytes:
    /// up to `limit` (1 to ``maximumAccountPageSize``) accounts after the id `after`
    /// (firebase-admin's `list_users`, whose page token is the last id of the page before).
    public func accounts(after: String?, limit: Int) async throws(AuthError) -> AccountPage {
        let size = min(max(limit, 1), Self.maximumAccountPageSize)
        // One more than the page holds says whether another page follows, so the last page never
        // points at an empty one.
        let records = try await service.storeCall("listing accounts") { try await service.store.accounts(after: after, limit: size + 1) }
        var details: [AccountDetails] = []
        details.reserveCapacity(min(records.count, size))
        for account in records.prefix(size) { details.append(try await self.details(account)) }
        return AccountPage(accounts: details, nextAfter: records.count > size ? details.last?.account.id : nil)
    }

    /// The account whose phone number (the `phone` identity) is `phoneNumber`, in any form
    /// ``PhoneAuthProvider`` accepts, or `nil` (Firebase's admin `accounts:lookup` by `phoneNumber`).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidPhoneNumber`` for a malformed number.
    public func accountDetails(phoneNumber: String) async throws(AuthError) -> AccountDetails? {
        let number = try service.parsePhoneNumber(phoneNumber)
        return try await accountDetails(providerID: PhoneAuthProvider.id, providerUID: number)
    }

    /// The account with the identity `providerUID` at `providerID`, or `nil` (Firebase's admin
    /// `accounts:lookup` by `federatedUserId`).
    public func accountDetails(providerID: String, providerUID: String) async throws(AuthError) -> AccountDetails? {
        guard
            let id = try await service.storeCall(
                "reading an identity's account", { try await service.store.accountID(providerID: providerID, providerUID: providerUID) })
        else { return nil }
        return try await accountDetails(id: id)
    }

    /// Deletes the accounts `ids` as ``deleteAccount(id:)`` does (firebase-admin's `delete_users`).
    /// Without `force`, an account that is not disabled stays; an id without an account counts as
    /// deleted, as Firebase counts it.
    /// - Returns: The accounts left in place, with why.
    public func deleteAccounts(ids: [String], force: Bool) async throws(AuthError) -> [AccountDeletionFailure] {
        var failures: [AccountDeletionFailure] = []
        for (index, id) in ids.enumerated() {
            if !force, let account = try await service.storeCall("reading an account", { try await service.store.account(id: id) }),
                !account.isDisabled
            {
                failures.append(
                    AccountDeletionFailure(index: index, accountID: id, message: "NOT_DISABLED : Disable the account before batch deletion."))
                continue
            }
            _ = try await deleteAccount(id: id)
        }
        return failures
    }
}
