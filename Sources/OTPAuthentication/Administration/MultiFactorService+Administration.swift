extension MultiFactorService {
    /// What an operator does with accounts (firebase-admin's user management).
    public var administration: AccountAdministration { AccountAdministration(service: self) }
}

// The administration's calls before they moved to `AccountAdministration`, for one release.
extension MultiFactorService {
    @available(*, deprecated, renamed: "AccountAdministration.maximumAccountIDLength")
    public static var maximumAccountIDLength: Int { AccountAdministration.maximumAccountIDLength }

    @available(*, deprecated, renamed: "AccountAdministration.maximumAccountPageSize")
    public static var maximumAccountPageSize: Int { AccountAdministration.maximumAccountPageSize }

    @available(*, deprecated, message: "use administration.accountDetails(id:)")
    public func accountDetails(id: String) async throws(AuthError) -> AccountDetails? {
        try await administration.accountDetails(id: id)
    }

    @available(*, deprecated, message: "use administration.accountDetails(email:)")
    public func accountDetails(email: String) async throws(AuthError) -> AccountDetails? {
        try await administration.accountDetails(email: email)
    }

    @available(*, deprecated, message: "use administration.accountDetails(phoneNumber:)")
    public func accountDetails(phoneNumber: String) async throws(AuthError) -> AccountDetails? {
        try await administration.accountDetails(phoneNumber: phoneNumber)
    }

    @available(*, deprecated, message: "use administration.accountDetails(providerID:providerUID:)")
    public func accountDetails(providerID: String, providerUID: String) async throws(AuthError) -> AccountDetails? {
        try await administration.accountDetails(providerID: providerID, providerUID: providerUID)
    }

    @available(
        *, deprecated, message: "use administration.createAccount(id:email:password:displayName:photoURL:isEmailVerified:isDisabled:phoneNumber:)"
    )
    public func createAccount(
        id: String?, email: String?, password: String?, displayName: String?, photoURL: String?, isEmailVerified: Bool, isDisabled: Bool,
        phoneNumber: String? = nil
    ) async throws(AuthError) -> AccountCreation {
        try await administration.createAccount(
            id: id, email: email, password: password, displayName: displayName, photoURL: photoURL, isEmailVerified: isEmailVerified,
            isDisabled: isDisabled, phoneNumber: phoneNumber)
    }

    @available(*, deprecated, message: "use administration.updateAccount(id:...)")
    public func updateAccount(
        id: String, email: String? = nil, password: String? = nil, displayName: AttributeChange<String>? = nil,
        photoURL: AttributeChange<String>? = nil, phoneNumber: AttributeChange<String>? = nil, isEmailVerified: Bool? = nil,
        isDisabled: Bool? = nil, tokensValidAfter: Int64? = nil, unlinkedProviders: Set<String> = [],
        customAttributes: AttributeChange<String>? = nil
    ) async throws(AuthError) -> AccountUpdate {
        try await administration.updateAccount(
            id: id, email: email, password: password, displayName: displayName, photoURL: photoURL, phoneNumber: phoneNumber,
            isEmailVerified: isEmailVerified, isDisabled: isDisabled, tokensValidAfter: tokensValidAfter, unlinkedProviders: unlinkedProviders,
            customAttributes: customAttributes)
    }

    @available(*, deprecated, message: "use administration.accounts(after:limit:)")
    public func accounts(after: String?, limit: Int) async throws(AuthError) -> AccountPage {
        try await administration.accounts(after: after, limit: limit)
    }

    @available(*, deprecated, message: "use administration.deleteAccount(id:)")
    public func deleteAccount(id: String) async throws(AuthError) -> Bool {
        try await administration.deleteAccount(id: id)
    }

    @available(*, deprecated, message: "use administration.deleteAccounts(ids:force:)")
    public func deleteAccounts(ids: [String], force: Bool) async throws(AuthError) -> [AccountDeletionFailure] {
        try await administration.deleteAccounts(ids: ids, force: force)
    }

    @available(*, deprecated, message: "use administration.enrolledFactors(accountID:)")
    public func enrolledFactors(accountID id: String) async throws(AuthError) -> [MultiFactorInfo] {
        try await administration.enrolledFactors(accountID: id)
    }
}
