/// What an operator does with accounts, as firebase-admin's user management does: read them by
/// id, address, number or identity, create, change, list and delete them, revoke their tokens.
///
/// Nothing here needs a session: the caller is the operator (a server checks its administrator's
/// credential first). Get it from ``MultiFactorService/administration``; it shares that service's
/// store, clock and rules.
public struct AccountAdministration: Sendable {
    let service: MultiFactorService

    /// The longest account id an administrator may choose (Firebase's limit on a `uid`).
    public static let maximumAccountIDLength = 128

    /// The most accounts one page of ``accounts(after:limit:)`` holds (Firebase's limit).
    public static let maximumAccountPageSize = 1000

    /// The account `id` with its `providerData`, or `nil` when there is none (an administrator's
    /// read: Firebase's `accounts:lookup` with `localId`).
    public func accountDetails(id: String) async throws(AuthError) -> AccountDetails? {
        guard let account = try await service.storeCall("reading an account", { try await service.store.account(id: id) }) else { return nil }
        return try await details(account)
    }

    /// The account with the address `email` (in any case) with its `providerData`, or `nil`.
    public func accountDetails(email: String) async throws(AuthError) -> AccountDetails? {
        guard let address = EmailAddress.normalized(email) else { return nil }
        guard let account = try await service.storeCall("reading an account", { try await service.store.account(email: address) }) else { return nil }
        return try await details(account)
    }

    /// Creates an account as an administrator does (Firebase's admin `accounts` call,
    /// firebase-admin's `create_user`): no sign-in, no session, every field optional.
    ///
    /// - Parameters:
    ///   - id: The uid to give it (1 to ``maximumAccountIDLength`` characters); a new random one when `nil`.
    ///   - email: The address, normalized and unique among accounts; none when `nil`.
    ///   - password: Hashed as a user's own; needs an address.
    ///   - displayName: The display name, if any.
    ///   - photoURL: The photo URL, if any.
    ///   - isEmailVerified: Whether the address counts as verified.
    ///   - isDisabled: Whether the account starts disabled (it cannot sign in).
    ///   - phoneNumber: The phone number, parsed into E.164 and linked as the `phone` identity,
    ///     unique among accounts; none when `nil`.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/weakPassword``,
    ///   ``AuthErrorCode/invalidPhoneNumber``,
    ///   or ``AuthErrorCode/operationNotAllowed`` for a password without an address or an id that is
    ///   empty or too long.
    public func createAccount(
        id: String?, email: String?, password: String?, displayName: String?, photoURL: String?, isEmailVerified: Bool, isDisabled: Bool,
        phoneNumber: String? = nil
    ) async throws(AuthError) -> AccountCreation {
        if let id, id.isEmpty || id.count > Self.maximumAccountIDLength {
            throw AuthError(.operationNotAllowed, "the uid must have 1 to \(Self.maximumAccountIDLength) characters")
        }
        let address = try email.map { (email) throws(AuthError) in try service.normalizedEmail(email) }
        if password != nil, address == nil {
            throw AuthError(.operationNotAllowed, "a password needs an email address: give both")
        }
        if let password { try service.checkNewPassword(password) }
        let phone = try phoneNumber.map { (text) throws(AuthError) in
            let number = try service.parsePhoneNumber(text)
            return ProviderIdentity(providerID: PhoneAuthProvider.id, providerUID: number, phoneNumber: number)
        }
        // The store decides, but a taken address or uid is refused before the hash's cost.
        if password != nil {
            if let address, try await service.storeCall("reading an account", { try await service.store.account(email: address) }) != nil {
                return .emailAlreadyInUse
            }
            if let id, try await service.storeCall("reading an account", { try await service.store.account(id: id) }) != nil {
                return .idAlreadyInUse
            }
        }
        var hash: String?
        if let password { hash = try await service.newPasswordHash(password) }
        let accountID: String
        if let id { accountID = id } else { accountID = try service.newID() }
        let account = AccountRecord(
            id: accountID, email: address, isEmailVerified: isEmailVerified, displayName: displayName, photoURL: photoURL,
            isDisabled: isDisabled, createdAt: service.clock.now(), passwordHash: hash)
        let event = service.auditEvent(.accountCreated, userID: account.id, actor: .system)
        switch try await service.storeCall(
            "creating an account", recording: event, { try await service.store.insertAccount(account, identity: phone) })
        {
        case .inserted:
            service.logger.info("account created by an administrator", metadata: ["user": "\(account.id)"])
            return .created(account)
        case .emailAlreadyInUse: return .emailAlreadyInUse
        case .idAlreadyInUse: return .idAlreadyInUse
        case .identityInUse: return .phoneNumberAlreadyInUse
        }
    }

    /// Deletes account `id` with its identities, second factors, sessions and recovery codes
    /// (firebase-admin's `delete_user`): whether there was such an account.
    public func deleteAccount(id: String) async throws(AuthError) -> Bool {
        let event = service.auditEvent(.accountDeleted, userID: id, actor: .system)
        let deleted = try await service.storeCall("deleting an account", recording: event) { try await service.store.deleteAccount(id: id) }
        if deleted { service.logger.info("account deleted", metadata: ["user": "\(id)"]) }
        return deleted
    }

    /// The second factors of account `id`, as its owner sees them (phone numbers whole): TOTP
    /// factors, then phone factors, each oldest first (Firebase's `mfaInfo` of a lookup).
    public func enrolledFactors(accountID id: String) async throws(AuthError) -> [MultiFactorInfo] {
        try await service.enrolledFactors(userID: id)
    }

    func details(_ account: AccountRecord) async throws(AuthError) -> AccountDetails {
        let linked = try await service.storeCall("reading linked identities") { try await service.store.providerIdentities(accountID: account.id) }
        return AccountDetails(account: account, providerData: account.providerData(linked: linked))
    }
}
