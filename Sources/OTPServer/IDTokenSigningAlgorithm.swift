/// The JWS algorithm an ID token signing key signs with, named as a token's `alg` header names it.
///
/// RS256 stays the default because Firebase's own ID tokens use it, and so every client written
/// for Firebase accepts it. ES256 (ECDSA on P-256) signs in a fraction of RS256's CPU time, which
/// matters when signing is a large part of what a sign-in costs the server; its keys and
/// signatures are smaller too.
public enum IDTokenSigningAlgorithm: String, Sendable, CaseIterable, Codable {
    /// RSASSA-PKCS1-v1_5 with SHA-256 on a 2048-bit RSA key, as Firebase signs.
    case rs256 = "RS256"
    /// ECDSA on the P-256 curve with SHA-256.
    case es256 = "ES256"

    /// The accepted names, for messages that list them.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
