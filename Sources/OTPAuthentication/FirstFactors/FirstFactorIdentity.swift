/// Who the host application authenticated with the first factor.
public struct FirstFactorIdentity: Sendable, Hashable {
    /// The user's stable id (Firebase's `uid`).
    public var userID: String
    /// The user's email address, if any.
    public var email: String?
    /// Whether the host verified the email address.
    public var isEmailVerified: Bool
    /// The provider that authenticated the first factor.
    public var provider: FirstFactorProvider
    /// The identities linked to the user's account (Firebase's `providerData`): filled by the
    /// service's own first factors; a host that authenticates users itself may fill it or not.
    public var providerData: [ProviderIdentity]
    /// The custom claims an administrator set on the account (``AccountRecord/customAttributes``),
    /// which its ID tokens carry: filled by the service's own first factors.
    public var customAttributes: String?

    /// Creates an identity.
    public init(
        userID: String, email: String?, isEmailVerified: Bool, provider: FirstFactorProvider, providerData: [ProviderIdentity] = [],
        customAttributes: String? = nil
    ) {
        self.userID = userID
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.provider = provider
        self.providerData = providerData
        self.customAttributes = customAttributes
    }
}
