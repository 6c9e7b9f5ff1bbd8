public import Foundation

/// An enrolled second factor as the client sees it: no secret, only what identifies it.
public struct MultiFactorInfo: Sendable, Hashable {
    /// The enrollment id, unique per factor.
    public let uid: String
    /// The name the user gave the factor, if any.
    public let displayName: String?
    /// When the factor was enrolled, in Unix seconds.
    public let enrollmentTime: Int64
    /// The factor kind: ``TOTPMultiFactorID`` for TOTP.
    public let factorID: String

    /// Creates the info of a factor.
    public init(uid: String, displayName: String?, enrollmentTime: Int64, factorID: String) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentTime = enrollmentTime
        self.factorID = factorID
    }

    init(_ record: FactorRecord) {
        self.init(uid: record.id, displayName: record.displayName, enrollmentTime: record.enrolledAt, factorID: record.factorID)
    }

    /// When the factor was enrolled.
    public var enrollmentDate: Date { Date(timeIntervalSince1970: TimeInterval(enrollmentTime)) }
}

/// The factor id of TOTP factors and assertions (Firebase's `TOTPMultiFactorID`).
public let TOTPMultiFactorID = "totp"
/// The factor id of phone factors (Firebase's `PhoneMultiFactorID`); this module enrolls TOTP only.
public let PhoneMultiFactorID = "phone"
