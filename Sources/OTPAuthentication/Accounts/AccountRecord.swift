/// A user account as a store keeps it: Firebase's user record, without the provider identities
/// (which come with account linking).
public struct AccountRecord: Sendable, Hashable {
    /// The user's id (Firebase's `uid`); the id the second factors are enrolled under.
    public var id: String
    /// The email address, normalized (``EmailAddress``); unique among accounts when present.
    public var email: String?
    /// Whether the address is verified.
    public var isEmailVerified: Bool
    /// The display name, if any.
    public var displayName: String?
    /// The photo URL, if any.
    public var photoURL: String?
    /// A disabled account cannot sign in.
    public var isDisabled: Bool
    /// When the account was created (Unix seconds).
    public var createdAt: Int64
    /// When its first factor last signed in (Unix seconds), if ever.
    public var lastSignInAt: Int64?
    /// The password's hash (``PasswordHasher``), when the account has a password; never the password.
    public var passwordHash: String?
    /// Tokens issued before this time (Unix seconds) are revoked: Firebase's `validSince`, set when
    /// an administrator revokes the user's refresh tokens. `nil` when that never happened.
    public var tokensValidAfter: Int64?
    /// The custom claims an administrator set (Firebase's `customAttributes`): one JSON object,
    /// serialized, which ID tokens carry as claims of their own; `nil` for none. The store keeps
    /// it as given: what it may hold is the caller's to check.
    public var customAttributes: String?

    /// An account record.
    public init(
        id: String,
        email: String?,
        isEmailVerified: Bool = false,
        displayName: String? = nil,
        photoURL: String? = nil,
        isDisabled: Bool = false,
        createdAt: Int64,
        lastSignInAt: Int64? = nil,
        passwordHash: String? = nil,
        tokensValidAfter: Int64? = nil,
        customAttributes: String? = nil
    ) {
        self.id = id
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.isDisabled = isDisabled
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
        self.passwordHash = passwordHash
        self.tokensValidAfter = tokensValidAfter
        self.customAttributes = customAttributes
    }
}

/// What ``AccountStore/insertAccount(_:identity:)`` did.
public enum AccountInsertion: Hashable, Sendable {
    /// The account is stored, with its identity when one was given.
    case inserted
    /// Another account has the email address: nothing was stored.
    case emailAlreadyInUse
    /// An account has the id: nothing was stored.
    case idAlreadyInUse
    /// The identity belongs to the account `accountID` already: nothing was stored, neither the
    /// account nor the identity.
    case identityInUse(accountID: String)
}

extension AccountRecord {
    /// Firebase's `providerData` of the account whose identities are `linked`: those, and the
    /// password as provider `password` whose uid is the address, in provider id order.
    package func providerData(linked: [ProviderIdentity]) -> [ProviderIdentity] {
        guard let email, passwordHash != nil else { return linked }
        let password = ProviderIdentity(providerID: FirstFactorProvider.password.rawValue, providerUID: email, email: email)
        return (linked + [password]).sorted { $0.providerID < $1.providerID }
    }
}
