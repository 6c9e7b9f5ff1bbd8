/// Why a registration or an authentication response was refused. Each message says what was wrong
/// with the response, never quoting a key, a signature or the client data.
public enum WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A field cannot be decoded: not base64, not JSON, not CBOR of the expected shape, too short.
    case malformed(String)
    /// The response belongs to another ceremony: another type, challenge, origin or relying party,
    /// an algorithm that was not offered, a credential that is not this one.
    case mismatch(String)
    /// The authenticator data lacks the user-present flag.
    case userNotPresent
    /// User verification was required and the authenticator data lacks the user-verified flag.
    case userNotVerified
    /// A COSE key type, algorithm or curve, or an attestation format, that OTPKit does not verify.
    case unsupported(String)
    /// A signature that does not verify.
    case invalidSignature(String)
    /// The signature counter did not increase (W3C Web Authentication section 6.1.1): a sign that
    /// the credential's private key was cloned.
    case signCountNotIncreased(stored: UInt32, received: UInt32)
    /// An attestation statement whose certificates break the format's rules or chain to no trusted root.
    case untrustedAttestation(String)

    public var description: String {
        switch self {
        case .malformed(let detail): "malformed response: \(detail)"
        case .mismatch(let detail): "response of another ceremony: \(detail)"
        case .userNotPresent: "the authenticator did not report the user present (flag UP)"
        case .userNotVerified: "user verification is required and the authenticator did not verify the user (flag UV)"
        case .unsupported(let detail): "unsupported: \(detail)"
        case .invalidSignature(let detail): "\(detail) does not verify"
        case .signCountNotIncreased(let stored, let received):
            "the signature counter went from \(stored) to \(received) instead of up: the credential may have been cloned"
        case .untrustedAttestation(let detail): "attestation not trusted: \(detail)"
        }
    }
}
