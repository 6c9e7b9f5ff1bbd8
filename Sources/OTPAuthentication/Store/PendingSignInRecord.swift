/// Proof that a user passed the first factor and now owes a second one (Firebase's
/// `mfaPendingCredential`).
///
/// The service does not store it when the sign-in starts: ``MultiFactorResolver/pendingCredential``
/// carries it under a MAC of the store's keys, so a first step writes nothing and any service of
/// the same store can take the sign-in up again. A store keeps only the ids of the ones that
/// completed a sign-in (``SpentCredentialStore/spendPendingSignIn(_:)``), until they expire.
public struct PendingSignInRecord: Sendable, Hashable {
    /// A random id, unique to this sign-in (letters and digits).
    public var id: String
    /// The user signing in.
    public var userID: String
    /// The first-factor provider id (``FirstFactorProvider/rawValue``).
    public var firstFactorProvider: String
    /// When the first factor passed.
    public var createdAt: Int64
    /// The last second at which the credential may be used.
    public var expiresAt: Int64

    /// Creates a record.
    public init(id: String, userID: String, firstFactorProvider: String, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.userID = userID
        self.firstFactorProvider = firstFactorProvider
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

extension PendingSignInRecord {
    /// The checks every use of a pending sign-in starts with, in this order: it was not spent
    /// (``SignInCompletion/credentialNotFound``), and `time` is not past its expiry
    /// (``SignInCompletion/credentialExpired(expiresAt:)``). `nil` when both hold. The stores
    /// share it, each telling whether the credential was spent as it finds out.
    package func refusal(spent: Bool, at time: Int64) -> SignInCompletion? {
        if spent { return .credentialNotFound }
        return time <= expiresAt ? nil : .credentialExpired(expiresAt: expiresAt)
    }
}

extension SignInFailure {
    /// A wrong code's outcome when ``PendingSignInRecord/refusal(spent:at:)`` refuses its
    /// credential: nothing is counted. `nil` when the credential may be used.
    package init?(refusing credential: PendingSignInRecord, spent: Bool, at time: Int64) {
        switch credential.refusal(spent: spent, at: time) {
        case nil: return nil
        case .credentialExpired(let expiresAt): self = .credentialExpired(expiresAt: expiresAt)
        default: self = .credentialNotFound
        }
    }
}
