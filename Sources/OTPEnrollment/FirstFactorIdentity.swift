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

    /// Creates an identity.
    public init(userID: String, email: String?, isEmailVerified: Bool, provider: FirstFactorProvider) {
        self.userID = userID
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.provider = provider
    }
}
