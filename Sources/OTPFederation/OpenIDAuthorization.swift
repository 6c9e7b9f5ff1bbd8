/// One authorization started by ``OpenIDAuthorizationClient/authorization(redirectURI:)``: where to
/// send the person, and what to keep until they come back (in an `HttpOnly` cookie of the browser,
/// or on the server) to check their return and exchange its code.
public struct OpenIDAuthorization: Sendable, Hashable {
    /// The provider's authorization endpoint with the request's parameters: the browser's next stop.
    public let url: String
    /// The `state` parameter: the return must carry it back (compare in constant time), so that
    /// nobody can make a browser complete a sign-in it did not start.
    public let state: String
    /// The raw nonce; the ID token must carry it (the provider gets it as sent).
    public let nonce: String
    /// The PKCE code verifier (RFC 7636), whose SHA-256 the provider got as the challenge; the
    /// token request proves with it that it comes from whoever started the authorization.
    public let codeVerifier: String
    /// The redirect URI the authorization named, which the token request must repeat.
    public let redirectURI: String

    /// An authorization as it was kept.
    public init(url: String, state: String, nonce: String, codeVerifier: String, redirectURI: String) {
        self.url = url
        self.state = state
        self.nonce = nonce
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
    }
}
