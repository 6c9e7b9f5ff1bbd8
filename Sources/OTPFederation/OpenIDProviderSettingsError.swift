import OTPCore

/// Why ``OpenIDProviderSettings`` refused a configuration. Thrown when the settings are made, so a
/// server fails at start-up rather than at the first sign-in; each message says what to change.
public enum OpenIDProviderSettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider id is empty.
    case emptyProviderID
    /// No issuer is accepted, or one of them is empty.
    case noIssuers
    /// No audience (client id) is accepted, or one of them is empty.
    case noAudiences
    /// The set of allowed algorithms is empty.
    case noAlgorithms
    /// An HMAC algorithm (`HS256`, …) was allowed. HMAC tokens are checked with a shared secret,
    /// which a provider does not have with its relying parties; with published public keys it is
    /// the key-confusion attack, so it is never allowed.
    case symmetricAlgorithm(String)
    /// `none` was allowed: an unsigned token proves nothing.
    case unsignedAlgorithm
    /// An algorithm that is not a JWS signature algorithm this verifier checks.
    case unsupportedAlgorithm(String)
    /// The clock skew is negative or beyond ``OpenIDProviderSettings/maximumClockSkew``.
    case clockSkewOutOfRange(seconds: Double)
    /// The maximum token age is not positive.
    case invalidMaximumTokenAge(seconds: Double)
    /// The key fetch timeout is not between a tenth of a second and a minute.
    case invalidKeyFetchTimeout(seconds: Double)
    /// The key set URL is not an absolute `https` (or loopback `http`) URL with a host. The value
    /// shown is the URL without its query or credentials.
    case invalidKeySetURL(String)
    /// The key set URL is plain `http` to a host other than loopback. The value shown is the URL
    /// without its query or credentials.
    case insecureKeySetURL(String)
    /// The key file path is empty.
    case emptyKeyFilePath
    /// An endpoint of the provider (named first) is not an absolute `https` (or loopback `http`)
    /// URL with a host. The URL is shown without its query or credentials.
    case invalidEndpointURL(String, String)
    /// An endpoint of the provider (named first) is plain `http` to a host other than loopback.
    case insecureEndpointURL(String, String)

    /// One line saying what is wrong and what to change.
    public var description: String {
        switch self {
        case .emptyProviderID:
            "the provider id is empty: give the id clients sign in with, such as google.com or oidc.example"
        case .noIssuers:
            "no issuer is accepted: give the provider's issuer as its discovery document names it (every value non-empty)"
        case .noAudiences:
            "no audience is accepted: give the OAuth client ids the app requests tokens for (every value non-empty)"
        case .noAlgorithms:
            "no signature algorithm is allowed: allow the one the provider signs with, usually RS256"
        case .symmetricAlgorithm(let name):
            "\(name) is an HMAC algorithm, checked with a shared secret an identity provider does not have with its clients; "
                + "allowing it next to published keys invites key confusion: allow the provider's RS256, PS256, ES256 or EdDSA"
        case .unsignedAlgorithm:
            "the algorithm none means an unsigned token, which proves nothing: allow the provider's signature algorithm"
        case .unsupportedAlgorithm(let name):
            "\(quotedInMessage(name, maximumScalars: 32)) is not a supported signature algorithm: allow one of "
                + OpenIDProviderSettings.supportedAlgorithms.sorted().joined(separator: ", ")
        case .clockSkewOutOfRange(let seconds):
            "a clock skew of \(seconds) s is out of range: give 0 to \(Int(OpenIDProviderSettings.maximumClockSkew.seconds)) s "
                + "(a larger skew extends the life of every stolen token)"
        case .invalidMaximumTokenAge(let seconds):
            "a maximum token age of \(seconds) s is not positive: give a positive age, or none to accept any age before expiry"
        case .invalidKeyFetchTimeout(let seconds):
            "a key fetch timeout of \(seconds) s is out of range: give 0.1 to 60 s"
        case .invalidKeySetURL(let url):
            "the key set URL \(url) is not an absolute https URL with a host: give the provider's jwks_uri"
        case .insecureKeySetURL(let url):
            "the key set URL \(url) is plain http to a host other than loopback, where anyone on the path could substitute keys: "
                + "use https (http is accepted for 127.0.0.1, ::1 and localhost only)"
        case .emptyKeyFilePath:
            "the key file path is empty: give the path of a JSON Web Key Set file"
        case .invalidEndpointURL(let name, let url):
            "the \(name) \(url) is not an absolute https URL with a host: give the one the provider's discovery document names"
        case .insecureEndpointURL(let name, let url):
            "the \(name) \(url) is plain http to a host other than loopback, where anyone on the path could read codes and tokens: "
                + "use https (http is accepted for 127.0.0.1, ::1 and localhost only)"
        }
    }
}
