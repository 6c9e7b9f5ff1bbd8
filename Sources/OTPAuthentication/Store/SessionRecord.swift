/// A signed-in session (what Firebase represents with an ID and refresh token).
///
/// A session ends when it is signed out or revoked, when it has not been used for the
/// configuration's ``MultiFactorConfiguration/sessionIdleLifetime``, or at the latest
/// ``MultiFactorConfiguration/sessionAbsoluteLifetime`` after it started: ``expiresAt`` is the
/// earlier of the two, moved on as the session is used.
public struct SessionRecord: Sendable, Hashable {
    /// The session id; unique.
    public var id: String
    /// The signed-in user.
    public var userID: String
    /// The first-factor provider id (``FirstFactorProvider/rawValue``).
    public var firstFactorProvider: String
    /// When the user signed in; recent-login checks and the absolute lifetime measure from here.
    public var authenticatedAt: Int64
    /// The enrollment id of the second factor that completed sign-in, when one did.
    public var secondFactorEnrollmentID: String?
    /// When the session was last used (to the minute: a use within a minute of the last recorded
    /// one is not written).
    public var lastUsedAt: Int64
    /// The Unix second after which the session is over; ``AuthStore/purgeExpired(before:failuresCountedBefore:)``
    /// deletes it from then on.
    public var expiresAt: Int64
    /// Claims the session's ID tokens carry beside the account's custom claims, one JSON object
    /// serialized: the developer claims of the custom token that started it (Firebase's `claims`),
    /// kept for every token the session is refreshed to. `nil` for none.
    public var sessionClaims: String?

    /// Creates a record.
    public init(
        id: String,
        userID: String,
        firstFactorProvider: String,
        authenticatedAt: Int64,
        secondFactorEnrollmentID: String?,
        lastUsedAt: Int64,
        expiresAt: Int64,
        sessionClaims: String? = nil
    ) {
        self.id = id
        self.userID = userID
        self.firstFactorProvider = firstFactorProvider
        self.authenticatedAt = authenticatedAt
        self.secondFactorEnrollmentID = secondFactorEnrollmentID
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.sessionClaims = sessionClaims
    }
}
