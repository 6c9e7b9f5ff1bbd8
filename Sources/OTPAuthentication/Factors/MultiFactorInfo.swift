public import Foundation

/// An enrolled second factor as the client sees it: no secret, only what identifies it.
public struct MultiFactorInfo: Sendable, Hashable {
    /// The enrollment id, unique per factor.
    public let uid: String
    /// The name the user gave the factor, if any.
    public let displayName: String?
    /// When the factor was enrolled, in Unix seconds.
    public let enrollmentTime: Int64
    /// The factor kind: ``TOTPMultiFactorID``, ``PhoneMultiFactorID`` or
    /// ``RecoveryCodeMultiFactorID``.
    public let factorID: String
    /// For a phone factor, its number (Firebase's `PhoneMultiFactorInfo.phoneNumber`): masked in a
    /// resolver's hints (`+1******0123`: the country calling code and the last four digits), whole
    /// in the owner's ``MultiFactor/enrolledFactors`` after enrolling, after
    /// ``MultiFactor/reload()`` and for a user from ``MultiFactorService/user(forSessionID:identity:)``.
    /// A user just signed in through a resolver carries its hints, masked, until a reload, as
    /// Firebase's SDKs do. `nil` for other factors.
    public let phoneNumber: String?

    /// Creates the info of a factor.
    public init(uid: String, displayName: String?, enrollmentTime: Int64, factorID: String, phoneNumber: String? = nil) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentTime = enrollmentTime
        self.factorID = factorID
        self.phoneNumber = phoneNumber
    }

    /// When the factor was enrolled.
    public var enrollmentDate: Date { Date(timeIntervalSince1970: TimeInterval(enrollmentTime)) }
}
