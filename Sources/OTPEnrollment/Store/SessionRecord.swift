/// A signed-in session (what Firebase represents with an ID and refresh token).
public struct SessionRecord: Sendable, Hashable {
    /// The session id; unique.
    public var id: String
    /// The signed-in user.
    public var userID: String
    /// The first-factor provider id (``FirstFactorProvider/rawValue``).
    public var firstFactorProvider: String
    /// When the user last signed in; recent-login checks measure from here.
    public var authenticatedAt: Int64
    /// The enrollment id of the second factor that completed sign-in, when one did.
    public var secondFactorEnrollmentID: String?

    /// Creates a record.
    public init(
        id: String,
        userID: String,
        firstFactorProvider: String,
        authenticatedAt: Int64,
        secondFactorEnrollmentID: String?
    ) {
        self.id = id
        self.userID = userID
        self.firstFactorProvider = firstFactorProvider
        self.authenticatedAt = authenticatedAt
        self.secondFactorEnrollmentID = secondFactorEnrollmentID
    }
}
