public import OTPCore

/// An enrollment that was started (`mfaEnrollment:start`) and waits for its first code.
public struct PendingEnrollmentRecord: Sendable, Equatable {
    /// The opaque session info that the client's ``TOTPSecret`` carries back; unique.
    public var id: String
    /// The user who started the enrollment.
    public var userID: String
    /// The new shared secret; a durable store seals it with ``id`` as associated data.
    public var secret: OTPSecret
    /// The HMAC hash function.
    public var algorithm: OTPAlgorithm
    /// The number of digits of each code.
    public var digits: Int
    /// The time step in seconds.
    public var period: Int64
    /// When the enrollment started.
    public var createdAt: Int64
    /// The last second at which the enrollment may be finalized (Firebase's `finalizeEnrollmentTime`).
    public var deadline: Int64

    /// Creates a record.
    public init(
        id: String,
        userID: String,
        secret: OTPSecret,
        algorithm: OTPAlgorithm,
        digits: Int,
        period: Int64,
        createdAt: Int64,
        deadline: Int64
    ) {
        self.id = id
        self.userID = userID
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.createdAt = createdAt
        self.deadline = deadline
    }
}
