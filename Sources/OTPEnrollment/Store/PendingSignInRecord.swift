/// Proof that a user passed the first factor and now owes a second one (Firebase's
/// `mfaPendingCredential`).
public struct PendingSignInRecord: Sendable, Hashable {
    /// The opaque credential the ``MultiFactorResolver`` carries; unique.
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
