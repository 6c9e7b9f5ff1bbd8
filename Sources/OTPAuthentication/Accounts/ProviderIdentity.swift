/// An identity at a first-factor provider linked to an account: one entry of Firebase's
/// `providerData`.
///
/// A provider identity (provider id and the provider's uid for the user) belongs to at most one
/// account, and an account has at most one identity per provider; the store enforces both. The
/// `password` provider is no identity of this kind: an account has a password when its
/// ``AccountRecord/passwordHash`` is set, with its ``AccountRecord/email``.
public struct ProviderIdentity: Sendable, Hashable {
    /// The provider (`google.com`, an OpenID Connect provider's `oidc.…` id, `phone`).
    public var providerID: String
    /// The user's id at the provider (an ID token's `sub`; the E.164 number for `phone`).
    public var providerUID: String
    /// The email address the provider asserted, if any.
    public var email: String?
    /// The name the provider gave, if any.
    public var displayName: String?
    /// The phone number, for `phone`.
    public var phoneNumber: String?

    /// An identity.
    public init(providerID: String, providerUID: String, email: String? = nil, displayName: String? = nil, phoneNumber: String? = nil) {
        self.providerID = providerID
        self.providerUID = providerUID
        self.email = email
        self.displayName = displayName
        self.phoneNumber = phoneNumber
    }
}

/// What ``AccountStore/linkProviderIdentity(_:accountID:email:)`` did.
public enum ProviderLink: Hashable, Sendable {
    /// The identity is now the account's.
    case linked
    /// The account already has an identity of this provider (Firebase's `providerAlreadyLinked`).
    case providerAlreadyLinked
    /// The identity belongs to an account, this one or another (Firebase's
    /// `credentialAlreadyInUse`): that account's id.
    case identityInUse(accountID: String)
    /// There is no account with the id.
    case accountNotFound
    /// Another account has the email address the link was to set (Firebase's
    /// `emailAlreadyInUse`): nothing changed.
    case emailAlreadyInUse
}
