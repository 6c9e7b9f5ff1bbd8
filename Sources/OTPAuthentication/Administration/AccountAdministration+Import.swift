internal import OTPCore

extension AccountAdministration {
    /// The most accounts one import takes (Firebase's limit).
    public static let maximumImportCount = 1000

    /// Makes `accounts` as they are, each with its uid, password hash and identities, as
    /// Firebase's `accounts:batchCreate` (firebase-admin's `import_users`) does; no session, no
    /// sign-in. Each account is made whole or not at all, and one that cannot be made leaves the
    /// others: an existing uid (never overwritten), an address or identity another account has, a
    /// malformed address or number, a password hash this server does not read or without an
    /// address. An imported hash is re-hashed at this server's cost at its owner's next sign-in.
    ///
    /// - Returns: The accounts not made, with why, by their position in `accounts`.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/operationNotAllowed`` for more than
    ///   ``maximumImportCount`` accounts (nothing is made), ``AuthErrorCode/internalError`` when
    ///   the store fails.
    public func importAccounts(_ accounts: [ImportedAccount]) async throws(AuthError) -> [AccountImportFailure] {
        guard accounts.count <= Self.maximumImportCount else {
            throw AuthError(.operationNotAllowed, "an import takes at most \(Self.maximumImportCount) accounts: split it")
        }
        var failures: [AccountImportFailure] = []
        var seen: Set<String> = []
        let hasher = service.configuration.passwords.hasher
        for (index, imported) in accounts.enumerated() {
            guard seen.insert(imported.id).inserted else {
                failures.append(AccountImportFailure(index: index, message: "localId \(imported.id.prefix(128)) is given twice in this import"))
                continue
            }
            if let reason = try await importAccount(imported, hasher: hasher) {
                failures.append(AccountImportFailure(index: index, message: reason))
            }
        }
        service.logger.info("accounts imported", metadata: ["made": "\(accounts.count - failures.count)", "refused": "\(failures.count)"])
        return failures
    }

    /// Makes one account; why not, when it was not made.
    private func importAccount(_ imported: ImportedAccount, hasher: PasswordHasher) async throws(AuthError) -> String? {
        let store = service.store
        guard !imported.id.isEmpty, imported.id.count <= Self.maximumAccountIDLength else {
            return "localId must have 1 to \(Self.maximumAccountIDLength) characters"
        }
        var address: String?
        if let email = imported.email {
            guard let normalized = EmailAddress.normalized(email) else { return "email is invalid" }
            address = normalized
        }
        if let hash = imported.passwordHash {
            guard hasher.reads(hash) else {
                return "the password hash is not one this server reads"
            }
            guard address != nil else { return "a password needs an email address" }
        }
        guard imported.secondFactors.count <= MultiFactorConfiguration.maximumFactorCount else {
            return "at most \(MultiFactorConfiguration.maximumFactorCount) second factors (mfaInfo) a user"
        }
        let now = service.clock.now()
        var totpFactors: [FactorRecord] = []
        var phoneFactors: [PhoneFactorRecord] = []
        for factor in imported.secondFactors {
            switch factor {
            case .phone(let text, let displayName, let enrolledAt):
                guard let number = try? service.parsePhoneNumber(text) else { return "a second factor's phone number is invalid" }
                guard !phoneFactors.contains(where: { $0.phoneNumber == number }) else { return "a phone number is a second factor twice" }
                phoneFactors.append(
                    PhoneFactorRecord(
                        id: try service.newID(), userID: imported.id, displayName: displayName, enrolledAt: enrolledAt ?? now, phoneNumber: number))
            case .totp(let bytes, let displayName, let enrolledAt):
                guard (16...64).contains(bytes.count), let secret = try? OTPSecret(bytes: bytes) else {
                    return "a TOTP factor's shared secret must have 16 to 64 bytes"
                }
                totpFactors.append(
                    FactorRecord(
                        id: try service.newID(), userID: imported.id, factorID: TOTPMultiFactorID, displayName: displayName,
                        enrolledAt: enrolledAt ?? now, secret: secret, algorithm: MultiFactorConfiguration.algorithm,
                        digits: MultiFactorConfiguration.codeLength, period: Int64(MultiFactorConfiguration.codeIntervalSeconds),
                        lastAcceptedStep: nil))
            }
        }
        var phone: ProviderIdentity?
        if let text = imported.phoneNumber {
            guard let number = try? service.parsePhoneNumber(text) else { return "phone number format is invalid" }
            phone = ProviderIdentity(providerID: PhoneAuthProvider.id, providerUID: number, phoneNumber: number)
        }
        // The store decides, but what it would refuse is named here, before anything is written.
        for identity in imported.identities + (phone.map { [$0] } ?? []) {
            let owner = try await service.storeCall("finding an identity's account") {
                try await store.accountID(providerID: identity.providerID, providerUID: identity.providerUID)
            }
            if owner != nil { return "raw id \(identity.providerUID.prefix(128)) of \(identity.providerID) exists in other account in database" }
        }
        let account = AccountRecord(
            id: imported.id, email: address, isEmailVerified: imported.isEmailVerified, displayName: imported.displayName,
            photoURL: imported.photoURL, isDisabled: imported.isDisabled, createdAt: imported.createdAt ?? now, lastSignInAt: imported.lastSignInAt,
            passwordHash: imported.passwordHash, customAttributes: imported.customAttributes)
        let event = service.auditEvent(.accountImported, userID: imported.id, actor: .system)
        switch try await service.storeCall("importing an account", recording: event, { try await store.insertAccount(account, identity: phone) }) {
        case .inserted: break
        case .idAlreadyInUse: return "localId belongs to an existing account - can not overwrite."
        case .emailAlreadyInUse: return "email exists in other account in database"
        case .identityInUse: return "phone number exists in other account in database"
        }
        let undone = service.auditEvent(.accountDeleted, userID: imported.id, actor: .system, reason: "the import could not be completed")
        for identity in imported.identities {
            let link = try await service.storeCall("linking an imported identity") {
                try await store.linkProviderIdentity(identity, accountID: imported.id, email: nil)
            }
            guard case .linked = link else {
                // Made whole or not at all: the account goes again.
                _ = try await service.storeCall("undoing an import", recording: undone) { try await store.deleteAccount(id: imported.id) }
                return "raw id \(identity.providerUID.prefix(128)) of \(identity.providerID) could not be linked (\(link)): the account was not made"
            }
        }
        if !totpFactors.isEmpty || !phoneFactors.isEmpty {
            let stored = try await service.storeCall("importing second factors") {
                try await store.importFactors(
                    userID: imported.id, totp: totpFactors, phone: phoneFactors, maximumFactorCount: MultiFactorConfiguration.maximumFactorCount)
            }
            guard stored else {
                _ = try await service.storeCall("undoing an import", recording: undone) { try await store.deleteAccount(id: imported.id) }
                return "the second factors could not be stored: the account was not made"
            }
        }
        return nil
    }
}
