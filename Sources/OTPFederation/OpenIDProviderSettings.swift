import OTPCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an ``OpenIDTokenVerifier`` accepts from one identity provider: who may issue the tokens,
/// for which clients, signed how, where the keys are, and how much clock difference to forgive.
///
/// The initializer checks every value and throws ``OpenIDProviderSettingsError`` for one that
/// cannot be right, so a misconfigured server stops at start-up instead of refusing (or, worse,
/// accepting) tokens later.
///
/// ```swift
/// let settings = try OpenIDProviderSettings.google(clientIDs: ["1234-abc.apps.googleusercontent.com"])
/// let verifier = OpenIDTokenVerifier(settings: settings)
/// ```
public struct OpenIDProviderSettings: Sendable, Hashable {
    /// The provider id the verifier answers for (``OpenIDTokenVerifier/providerID``).
    public let providerID: String
    /// The accepted `iss` values. A provider may use more than one spelling: Google issues both
    /// `https://accounts.google.com` and `accounts.google.com`.
    public let issuers: Set<String>
    /// The OAuth client ids the tokens must be issued for: the token's `aud` must contain one.
    public let audiences: Set<String>
    /// Where the provider's public keys are read.
    public let keySource: JWKSSource
    /// The JWS algorithms accepted in a token's header, a subset of ``supportedAlgorithms``.
    public let allowedAlgorithms: Set<String>
    /// How far the provider's clock and ours may disagree: forgiven on `exp`, `iat` and `nbf`.
    public let clockSkew: Duration
    /// When set, tokens issued (`iat`) longer ago than this are refused even before they expire.
    public let maximumTokenAge: Duration?
    /// How long one fetch of the key set may take, connection, head and body.
    public let keyFetchTimeout: Duration

    /// The signature algorithms a verifier can check: RSA PKCS #1 v1.5 and PSS, ECDSA and EdDSA.
    /// Never `none` and never HMAC (see ``OpenIDProviderSettingsError/symmetricAlgorithm(_:)``).
    public static let supportedAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]

    /// The largest clock skew accepted: five minutes, Kerberos's traditional bound. Beyond it the
    /// skew stops forgiving clocks and starts extending tokens' lives.
    public static let maximumClockSkew: Duration = .seconds(300)

    /// Settings for one provider.
    ///
    /// - Parameters:
    ///   - providerID: The provider id clients sign in with (`google.com`, `oidc.example`).
    ///   - issuers: The accepted `iss` values, as the provider's discovery document names its issuer.
    ///   - audiences: The OAuth client ids of the apps whose tokens the server accepts.
    ///   - keySource: Where the provider publishes its keys (its `jwks_uri`) or a key file.
    ///   - allowedAlgorithms: The accepted signature algorithms; `RS256`, which every OpenID Connect
    ///     provider supports, unless the provider signs otherwise.
    ///   - clockSkew: The forgiven clock difference, 0 to ``maximumClockSkew``; one minute by default.
    ///   - maximumTokenAge: The longest time since `iat` a token is accepted; none by default (its
    ///     `exp` alone decides).
    ///   - keyFetchTimeout: The bound on one fetch of the key set, 0.1 to 60 seconds; 10 by default.
    /// - Throws: ``OpenIDProviderSettingsError`` naming the first value that cannot be right.
    public init(
        providerID: String,
        issuers: some Sequence<String>,
        audiences: some Sequence<String>,
        keySource: JWKSSource,
        allowedAlgorithms: some Sequence<String> = ["RS256"],
        clockSkew: Duration = .seconds(60),
        maximumTokenAge: Duration? = nil,
        keyFetchTimeout: Duration = .seconds(10)
    ) throws(OpenIDProviderSettingsError) {
        guard !providerID.isEmpty else { throw .emptyProviderID }
        let issuers = Set(issuers)
        guard !issuers.isEmpty, !issuers.contains("") else { throw .noIssuers }
        let audiences = Set(audiences)
        guard !audiences.isEmpty, !audiences.contains("") else { throw .noAudiences }
        let algorithms = Set(allowedAlgorithms)
        guard !algorithms.isEmpty else { throw .noAlgorithms }
        // Sorted, so that the same settings always name the same algorithm in the error.
        for algorithm in algorithms.sorted() {
            if algorithm.lowercased() == "none" { throw .unsignedAlgorithm }
            if algorithm.uppercased().hasPrefix("HS") { throw .symmetricAlgorithm(algorithm) }
            guard Self.supportedAlgorithms.contains(algorithm) else { throw .unsupportedAlgorithm(algorithm) }
        }
        guard clockSkew >= .zero, clockSkew <= Self.maximumClockSkew else { throw .clockSkewOutOfRange(seconds: clockSkew.seconds) }
        if let maximumTokenAge, maximumTokenAge <= .zero { throw .invalidMaximumTokenAge(seconds: maximumTokenAge.seconds) }
        guard keyFetchTimeout >= .milliseconds(100), keyFetchTimeout <= .seconds(60) else {
            throw .invalidKeyFetchTimeout(seconds: keyFetchTimeout.seconds)
        }
        switch keySource {
        case .url(let url): try Self.checkKeySetURL(url)
        case .file(let path): guard !path.isEmpty else { throw .emptyKeyFilePath }
        }
        self.providerID = providerID
        self.issuers = issuers
        self.audiences = audiences
        self.keySource = keySource
        self.allowedAlgorithms = algorithms
        self.clockSkew = clockSkew
        self.maximumTokenAge = maximumTokenAge
        self.keyFetchTimeout = keyFetchTimeout
    }

    /// Google's ID tokens (Sign in with Google, Google Identity Services) for the given OAuth client
    /// ids: both issuer spellings Google uses, its published keys, RS256, provider id `google.com`.
    ///
    /// - Parameter clientIDs: The OAuth client ids of the apps (web, Android, iOS) whose tokens the
    ///   server accepts, as the Google Cloud console shows them.
    /// - Throws: ``OpenIDProviderSettingsError/noAudiences`` when no client id is given.
    public static func google(clientIDs: some Sequence<String>) throws(OpenIDProviderSettingsError) -> OpenIDProviderSettings {
        try OpenIDProviderSettings(
            providerID: "google.com",
            issuers: ["https://accounts.google.com", "accounts.google.com"],
            audiences: clientIDs,
            keySource: .url("https://www.googleapis.com/oauth2/v3/certs"))
    }

    private static func checkKeySetURL(_ text: String) throws(OpenIDProviderSettingsError) {
        switch problem(with: text) {
        case nil: return
        case .invalid: throw .invalidKeySetURL(displayed(text))
        case .insecure: throw .insecureKeySetURL(displayed(text))
        }
    }

    /// Checks the URL of one of a provider's endpoints, as the key set's.
    static func checkEndpoint(_ text: String, named name: String) throws(OpenIDProviderSettingsError) {
        switch problem(with: text) {
        case nil: return
        case .invalid: throw .invalidEndpointURL(name, displayed(text))
        case .insecure: throw .insecureEndpointURL(name, displayed(text))
        }
    }

    enum URLProblem {
        case invalid, insecure
    }

    /// What is wrong with a provider's URL: not an absolute `https` URL with a host, or plain
    /// `http` to a host other than loopback.
    private static func problem(with text: String) -> URLProblem? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return .invalid }
        switch scheme {
        case "https": return nil
        case "http": return isLoopback(host: host) ? nil : .insecure
        default: return .invalid
        }
    }

    /// Whether `host` names this machine, where plain HTTP cannot be intercepted.
    static func isLoopback(host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return ["127.0.0.1", "::1", "localhost"].contains(bare.lowercased())
    }

    /// A key set URL as messages show it: scheme, host, port and path, without credentials, query
    /// or fragment, which may carry an access token.
    static func displayed(_ text: String) -> String {
        guard let url = URL(string: text), let scheme = url.scheme, let host = url.host else {
            // Not a URL: cut at the first character that could start a query or credentials.
            let cut = text.prefix { !"?#@".contains($0) }
            return quotedInMessage(String(cut), maximumScalars: 120)
        }
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port.map { ":\($0)" } ?? ""
        return quotedInMessage("\(scheme)://\(shownHost)\(port)\(url.path)", maximumScalars: 120)
    }
}
