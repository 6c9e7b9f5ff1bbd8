/// Why an ID token was refused. Messages say what was wrong, never the token.
public enum IDTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a JWT this server signed: malformed, another key, another algorithm, a changed payload.
    case invalid
    /// Signed under a key id this server does not hold: never one of its keys, or one retired
    /// long enough ago that every token it signed has expired.
    case unknownKey
    /// Issued for another project, or by another issuer.
    case wrongProject
    /// Its `exp` passed at the given time.
    case expired
    /// The token could not be signed (the key or the encoder failed).
    case signingFailed
    /// A session cookie was asked of a server whose signing key is not RSA: firebase-admin
    /// verifies cookies as RS256 only.
    case sessionCookieNeedsRS256

    public var description: String {
        switch self {
        case .invalid: "the ID token is not one this server signed: sign in again"
        case .unknownKey: "the ID token names a signing key this server does not hold: sign in again"
        case .wrongProject: "the ID token was issued for another project"
        case .expired: "the ID token has expired: refresh it or sign in again"
        case .signingFailed: "the server could not sign an ID token"
        case .sessionCookieNeedsRS256:
            "session cookies are RS256, as firebase-admin verifies them, and this server signs with ES256: rotate to an RS256 key (otpkit-server rotate-signing-key --algorithm RS256)"
        }
    }
}
