/// The kinds of second factor, by the factor id that ``MultiFactorInfo/factorID`` and
/// ``MultiFactorAssertion/factorID`` carry.
///
/// Switch over it, without `default`, wherever a kind decides something (a wire field, a prompt, a
/// message), so that a new kind does not compile until each such place is decided for it.
public enum FactorKind: String, Sendable, Hashable, CaseIterable {
    /// Codes from an authenticator app (``TOTPMultiFactorGenerator``).
    case totp
    /// Codes sent by text message to a phone number (``PhoneMultiFactorGenerator``).
    case phone
    /// OTPKit's single-use recovery codes (``RecoveryCodeMultiFactorGenerator``).
    case recoveryCode = "recovery"
    /// A passkey or security key (WebAuthn) as a second factor, OTPKit's extension
    /// (``WebAuthnMultiFactorGenerator``).
    case webauthn

    /// The kind's factor id: Firebase's `TOTPMultiFactorID` and `PhoneMultiFactorID`, and OTPKit's
    /// ``RecoveryCodeMultiFactorID``.
    public var factorID: String { rawValue }

    /// What the service does with factors of this kind: the one place a kind registers.
    var handler: any FactorHandler {
        switch self {
        case .totp: TOTPFactorHandler()
        case .phone: PhoneFactorHandler()
        case .recoveryCode: RecoveryCodeFactorHandler()
        case .webauthn: WebAuthnFactorHandler()
        }
    }
}

extension MultiFactorInfo {
    /// The factor's kind; `nil` for a factor id this module does not know (an info made by hand).
    public var kind: FactorKind? { FactorKind(rawValue: factorID) }
}
