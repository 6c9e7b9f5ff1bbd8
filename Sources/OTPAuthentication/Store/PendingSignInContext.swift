/// A pending sign-in with everything needed to take it up again at a later request, perhaps at
/// another server of the same store: its user's account, linked identities and factors.
public struct PendingSignInContext: Sendable, Equatable {
    /// The pending sign-in credential.
    public var credential: PendingSignInRecord
    /// The account of the credential's user, when the user has one in the store.
    public var account: AccountRecord?
    /// The account's provider identities, ordered by provider id.
    public var identities: [ProviderIdentity]
    /// The user's TOTP and phone factors, each kind oldest first.
    public var factors: SignInFactors

    /// Creates a context.
    public init(credential: PendingSignInRecord, account: AccountRecord?, identities: [ProviderIdentity], factors: SignInFactors) {
        self.credential = credential
        self.account = account
        self.identities = identities
        self.factors = factors
    }
}
