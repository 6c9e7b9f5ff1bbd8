/// An account as an administrator reads it: the record and its `providerData` (linked identities,
/// with the password as provider `password`).
public struct AccountDetails: Sendable, Hashable {
    /// The account.
    public var account: AccountRecord
    /// Firebase's `providerData`, in provider id order.
    public var providerData: [ProviderIdentity]

    /// Creates details.
    public init(account: AccountRecord, providerData: [ProviderIdentity]) {
        self.account = account
        self.providerData = providerData
    }
}

/// What ``AccountAdministration/createAccount(id:email:password:displayName:photoURL:isEmailVerified:isDisabled:phoneNumber:)`` did.
public enum AccountCreation: Sendable, Hashable {
    /// The account was stored.
    case created(AccountRecord)
    /// Another account has the email address; nothing was stored.
    case emailAlreadyInUse
    /// An account has the requested id; nothing was stored.
    case idAlreadyInUse
    /// Another account has the phone number; nothing was stored.
    case phoneNumberAlreadyInUse
}
