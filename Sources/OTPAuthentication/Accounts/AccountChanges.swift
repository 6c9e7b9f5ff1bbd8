/// What an administrator changes on an account in one step
/// (``AccountStore/updateAccount(id:changes:)``; firebase-admin's `update_user`). A `nil`
/// field leaves its attribute as it is.
public struct AccountChanges: Sendable, Hashable {
    /// The new email address, normalized (``EmailAddress``); unique among accounts.
    public var email: String?
    /// Whether the address counts as verified. When `nil` and ``email`` changes the address, the
    /// new address is unverified, as Firebase resets it.
    public var isEmailVerified: Bool?
    /// The display name, set or removed.
    public var displayName: AttributeChange<String>?
    /// The photo URL, set or removed.
    public var photoURL: AttributeChange<String>?
    /// A new password hash (``PasswordHasher``); never a password.
    public var passwordHash: String?
    /// Whether the password hash is removed, the address kept (an unverified password account
    /// whose address its owner proved through an identity provider). Unlike unlinking `password`,
    /// which removes the address too.
    public var removesPasswordHash: Bool
    /// Whether the account is disabled.
    public var isDisabled: Bool?
    /// Tokens issued before this time (Unix seconds) are revoked (``AccountRecord/tokensValidAfter``).
    public var tokensValidAfter: Int64?
    /// The `phone` identity: set (the account's number, unique among accounts) or removed.
    public var phone: AttributeChange<ProviderIdentity>?
    /// The providers unlinked from the account (firebase-admin's `providers_to_delete`): for
    /// `password`, the password hash with the address and its verification, as
    /// ``AccountStore/unlinkProvider(_:accountID:)`` clears them; for any other provider id, the
    /// account's identity of that provider. A provider the account has no identity of changes nothing.
    public var unlinkedProviders: Set<String>
    /// The custom claims (``AccountRecord/customAttributes``), set or removed.
    public var customAttributes: AttributeChange<String>?

    /// Changes; every field left `nil` keeps its attribute.
    public init(
        email: String? = nil, isEmailVerified: Bool? = nil, displayName: AttributeChange<String>? = nil,
        photoURL: AttributeChange<String>? = nil, passwordHash: String? = nil, isDisabled: Bool? = nil, tokensValidAfter: Int64? = nil,
        phone: AttributeChange<ProviderIdentity>? = nil, unlinkedProviders: Set<String> = [], customAttributes: AttributeChange<String>? = nil,
        removesPasswordHash: Bool = false
    ) {
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.passwordHash = passwordHash
        self.isDisabled = isDisabled
        self.tokensValidAfter = tokensValidAfter
        self.phone = phone
        self.unlinkedProviders = unlinkedProviders
        self.customAttributes = customAttributes
        self.removesPasswordHash = removesPasswordHash
    }

    /// The providers of ``unlinkedProviders`` stored as identities: all but `password`, in a fixed
    /// order, so that stores delete their rows in the same order every time.
    public var unlinkedIdentityProviders: [String] {
        unlinkedProviders.filter { $0 != FirstFactorProvider.password.rawValue }.sorted()
    }

    /// `record` with the changes to its own fields (everything but ``phone`` and the identities of
    /// ``unlinkedProviders``), which every store writes back whole, so that the rules are written once.
    public func applied(to record: AccountRecord) -> AccountRecord {
        var changed = record
        if let email, email != record.email {
            changed.email = email
            changed.isEmailVerified = false
        }
        if let isEmailVerified { changed.isEmailVerified = isEmailVerified }
        switch displayName {
        case .set(let name): changed.displayName = name
        case .remove: changed.displayName = nil
        case nil: break
        }
        switch photoURL {
        case .set(let url): changed.photoURL = url
        case .remove: changed.photoURL = nil
        case nil: break
        }
        if let passwordHash { changed.passwordHash = passwordHash }
        if removesPasswordHash { changed.passwordHash = nil }
        if let isDisabled { changed.isDisabled = isDisabled }
        if let tokensValidAfter { changed.tokensValidAfter = tokensValidAfter }
        switch customAttributes {
        case .set(let claims): changed.customAttributes = claims
        case .remove: changed.customAttributes = nil
        case nil: break
        }
        if unlinkedProviders.contains(FirstFactorProvider.password.rawValue) {
            changed.passwordHash = nil
            changed.email = nil
            changed.isEmailVerified = false
        }
        return changed
    }
}

/// What ``AccountStore/updateAccount(id:changes:)`` did.
public enum AccountUpdate: Sendable, Hashable {
    /// The account was changed; this is what it is now.
    case updated(AccountRecord)
    /// No account has the id: nothing changed.
    case accountNotFound
    /// Another account has the new email address: nothing changed.
    case emailAlreadyInUse
    /// Another account, `accountID`, has the new phone identity: nothing changed.
    case identityInUse(accountID: String)
}
