public import X509

/// What a relying party accepts as attestation (W3C Web Authentication sections 7.1 steps 21–24
/// and 8): OTPKit verifies `none` and `packed` (self attestation, or a certificate chain in `x5c`).
public struct AttestationPolicy: Sendable {
    /// What to do with a format OTPKit does not verify (`tpm`, `android-key`, `apple`, `fido-u2f`, …).
    public enum OtherFormats: Sendable {
        /// Refuse the registration (``WebAuthnError/unsupported(_:)``).
        case refuse
        /// Register the credential as if it came with attestation `none`: its statement is not
        /// looked at (section 7.1, step 24's note allows treating it as self-attested).
        case acceptAsNone
    }

    /// Roots an `x5c` chain must lead to; with none, a packed statement whose signature and
    /// certificate verify is registered with trust ``AttestationTrust/uncertain``.
    public var trustAnchors: [Certificate]
    /// Whether only a chain to ``trustAnchors`` is accepted (`none` and self refused).
    public var requiresTrustedAttestation: Bool
    public var otherFormats: OtherFormats

    /// Passkeys as browsers create them for a relying party that asks for no attestation: `none`
    /// and self attestation accepted, other formats refused.
    public init(trustAnchors: [Certificate] = [], requiresTrustedAttestation: Bool = false, otherFormats: OtherFormats = .refuse) {
        self.trustAnchors = trustAnchors
        self.requiresTrustedAttestation = requiresTrustedAttestation
        self.otherFormats = otherFormats
    }
}

/// How far a registration's attestation was established (section 6.5.3's attestation types).
public enum AttestationTrust: String, Sendable, Codable {
    /// No attestation (`none`), or a format accepted as none by policy.
    case none
    /// Signed by the credential's own key (`packed` without `x5c`).
    case `self`
    /// A certificate chain to one of the policy's trust anchors.
    case trusted
    /// A certificate that verifies, with no trust anchor to chain it to.
    case uncertain
}
