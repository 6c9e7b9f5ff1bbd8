/// An email address to set on an account as a provider identity is linked to it
/// (``AccountStore/linkProviderIdentity(_:accountID:email:)``), such as the verified address a
/// federated provider asserted.
public struct AccountEmailUpdate: Sendable, Hashable {
    /// The address, normalized (``EmailAddress``).
    public var address: String
    /// Whether the address is verified.
    public var isVerified: Bool

    /// An address to set, normalized, and whether it is verified.
    public init(address: String, isVerified: Bool) {
        self.address = address
        self.isVerified = isVerified
    }
}
