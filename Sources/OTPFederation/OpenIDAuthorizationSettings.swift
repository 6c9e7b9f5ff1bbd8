#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an ``OpenIDAuthorizationClient`` needs to send a person to one OpenID Connect provider and
/// take their ID token back: the authorization code flow (OpenID Connect Core 1.0 section 3.1)
/// with PKCE (RFC 7636), as a web page signs people in with a provider.
///
/// The ID token the flow brings back is then checked like any other, by the provider's
/// ``OpenIDTokenVerifier``, nonce included; these settings say only where to send the person and
/// where to exchange the code.
public struct OpenIDAuthorizationSettings: Sendable, Hashable {
    /// The provider id the tokens sign in with (`google.com`, `oidc.example`): the verifier's.
    public let providerID: String
    /// The provider's name as a person knows it, for the button that sends them there.
    public let displayName: String
    /// The OAuth client id the server is registered under at the provider.
    public let clientID: String
    /// The client secret, sent to the token endpoint with HTTP Basic authentication
    /// (`client_secret_basic`, the method every provider supports); `nil` for a public client,
    /// which PKCE alone protects.
    public let clientSecret: String?
    /// The provider's `authorization_endpoint`.
    public let authorizationEndpoint: String
    /// The provider's `token_endpoint`.
    public let tokenEndpoint: String
    /// The scopes asked for: `openid` first, then `email` and `profile` unless others are given.
    public let scopes: [String]
    /// How long one exchange at the token endpoint may take, connection, head and body.
    public static let tokenExchangeTimeout: Duration = .seconds(10)

    /// Settings for one provider.
    ///
    /// - Parameters:
    ///   - providerID: The provider id of its ``OpenIDProviderSettings``.
    ///   - displayName: Its name on the sign-in page; the provider id when `nil`.
    ///   - clientID: The OAuth client id of this server at the provider.
    ///   - clientSecret: Its client secret, or `nil` for a public client.
    ///   - authorizationEndpoint: The provider's `authorization_endpoint`, from its discovery document.
    ///   - tokenEndpoint: The provider's `token_endpoint`, from its discovery document.
    ///   - scopes: Scopes besides `openid`; `email` and `profile` by default.
    /// - Throws: ``OpenIDProviderSettingsError`` naming the first value that cannot be right.
    public init(
        providerID: String, displayName: String? = nil, clientID: String, clientSecret: String?, authorizationEndpoint: String,
        tokenEndpoint: String, scopes: [String] = ["email", "profile"]
    ) throws(OpenIDProviderSettingsError) {
        guard !providerID.isEmpty else { throw .emptyProviderID }
        guard !clientID.isEmpty else { throw .noAudiences }
        try OpenIDProviderSettings.checkEndpoint(authorizationEndpoint, named: "authorization endpoint")
        try OpenIDProviderSettings.checkEndpoint(tokenEndpoint, named: "token endpoint")
        self.providerID = providerID
        self.displayName = displayName ?? providerID
        self.clientID = clientID
        self.clientSecret = clientSecret.flatMap { $0.isEmpty ? nil : $0 }
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.scopes = ["openid"] + scopes.filter { $0 != "openid" && !$0.isEmpty }
    }

    /// Google's endpoints, for a web client of the Google Cloud console.
    ///
    /// - Parameters:
    ///   - clientID: The OAuth client id (`1234-abc.apps.googleusercontent.com`).
    ///   - clientSecret: Its client secret.
    public static func google(clientID: String, clientSecret: String) throws(OpenIDProviderSettingsError) -> OpenIDAuthorizationSettings {
        try OpenIDAuthorizationSettings(
            providerID: "google.com", displayName: "Google", clientID: clientID, clientSecret: clientSecret,
            authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth", tokenEndpoint: "https://oauth2.googleapis.com/token")
    }
}
