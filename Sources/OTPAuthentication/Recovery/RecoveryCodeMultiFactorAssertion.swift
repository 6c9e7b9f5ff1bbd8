/// A recovery code offered to complete a sign-in (``RecoveryCodeMultiFactorGenerator``; OTPKit's
/// own addition to Firebase's factors).
public struct RecoveryCodeMultiFactorAssertion: MultiFactorAssertion {
    let code: String

    /// ``RecoveryCodeMultiFactorID`` (`"recovery"`).
    public var factorID: String { RecoveryCodeMultiFactorID }
}

/// The factor id of recovery codes (OTPKit's own; Firebase has no recovery codes).
public let RecoveryCodeMultiFactorID = FactorKind.recoveryCode.factorID
