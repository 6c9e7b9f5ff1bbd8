extension MultiFactorInfo {
    /// The info of a TOTP factor.
    init(_ record: FactorRecord) {
        self.init(uid: record.id, displayName: record.displayName, enrollmentTime: record.enrolledAt, factorID: record.factorID)
    }
}

/// The factor id of TOTP factors and assertions (Firebase's `TOTPMultiFactorID`).
public let TOTPMultiFactorID = FactorKind.totp.factorID
