/// The COSE algorithms (IANA COSE Algorithms registry) OTPKit verifies, as `pubKeyCredParams`
/// offers them and credential public keys name them.
public enum COSEAlgorithm: Int64, Sendable, CaseIterable, Codable {
    /// EdDSA with Ed25519 (RFC 9053).
    case eddsa = -8
    /// ECDSA with P-256 and SHA-256.
    case es256 = -7
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}
