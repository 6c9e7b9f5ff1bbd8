public import OTPCore

/// An enrolled second factor with its secret and replay state.
public struct FactorRecord: Sendable, Equatable {
    /// The enrollment id (Firebase's `MultiFactorInfo.uid`); unique.
    public var id: String
    /// The user the factor belongs to.
    public var userID: String
    /// The factor kind: ``TOTPMultiFactorID`` (`"totp"`).
    public var factorID: String
    /// The name the user gave the factor, if any.
    public var displayName: String?
    /// When the factor was enrolled.
    public var enrolledAt: Int64
    /// The shared secret; a durable store seals it with ``id`` as associated data.
    public var secret: OTPSecret
    /// The HMAC hash function.
    public var algorithm: OTPAlgorithm
    /// The number of digits of each code.
    public var digits: Int
    /// The time step in seconds.
    public var period: Int64
    /// The highest time step whose code was accepted; only later steps are accepted after it.
    public var lastAcceptedStep: UInt64?

    /// Creates a record.
    public init(
        id: String,
        userID: String,
        factorID: String,
        displayName: String?,
        enrolledAt: Int64,
        secret: OTPSecret,
        algorithm: OTPAlgorithm,
        digits: Int,
        period: Int64,
        lastAcceptedStep: UInt64?
    ) {
        self.id = id
        self.userID = userID
        self.factorID = factorID
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.lastAcceptedStep = lastAcceptedStep
    }
}
