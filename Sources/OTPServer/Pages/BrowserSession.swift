internal import Hummingbird
internal import OTPCore
internal import OTPFederation
internal import OTPSealing

/// What a browser holds of its sign-in, all in cookies the page's script cannot read: the session
/// (a token naming the store's session, MAC'd as refresh tokens are, in a context of its own), a
/// pending second step (the service's pending credential, MAC'd by the service) and, before any
/// sign-in, a random seed that binds the sign-in form's CSRF token to this browser.
///
/// Every form carries a CSRF token: the keyed digest of the session id (or the seed) under the
/// store's code digest key, so that only this server can make one and only for this browser; a
/// page gets it in its forms, a cross-site page never sees it. Cookies are `HttpOnly`,
/// `SameSite=Lax`, `Path=/`, and `Secure` with the `__Host-` prefix outside loopback, where there
/// is no TLS to require.
struct BrowserSession: Sendable {
    let tokens: SignedTokenCodec
    let providerSignIns: SignedTokenCodec
    let keys: SecretSealer

    init(keys: SecretSealer) {
        self.keys = keys
        self.tokens = SignedTokenCodec(keys: keys, prefix: "otpkw1", context: "otpkit-server browser session:")
        self.providerSignIns = SignedTokenCodec(keys: keys, prefix: "otpkwp1", context: "otpkit-server provider sign-in:")
    }

    enum CookieName: String, CaseIterable {
        case session = "otpkit-session"
        case pending = "otpkit-pending"
        case seed = "otpkit-seed"
        /// A sign-in at an identity provider under way: its state, nonce and PKCE verifier.
        case provider = "otpkit-provider"
    }

    /// Whether the request came to a name other than loopback, where cookies must be `Secure`.
    static func isSecure(_ request: Request) -> Bool {
        guard let authority = request.head.authority else { return true }
        return !LoopbackHost.contains(authority: authority)
    }

    static func name(_ cookie: CookieName, secure: Bool) -> String {
        secure ? "__Host-" + cookie.rawValue : cookie.rawValue
    }

    /// The value of `cookie`, under the name the request's origin uses.
    static func value(_ cookie: CookieName, in request: Request) -> String? {
        request.cookies[name(cookie, secure: isSecure(request))]?.value
    }

    /// `cookie` set to `value` for the rest of the browser's session (no `Max-Age` unless given:
    /// the store's session decides how long a sign-in lasts), or removed when `value` is `nil`.
    static func cookie(_ cookie: CookieName, _ value: String?, for request: Request, maxAge: Int? = nil) -> Cookie {
        let secure = isSecure(request)
        return Cookie(
            name: name(cookie, secure: secure), value: value ?? "", maxAge: value == nil ? 0 : maxAge, path: "/", secure: secure,
            httpOnly: true, sameSite: .lax)
    }

    /// The cookie value keeping `authorization` of `providerID` until `expiresAt`, under a MAC:
    /// `SameSite=Lax` sends it with the provider's top-level redirect back, and only this server
    /// can make one. Its verifier is no secret from the browser that holds it: PKCE keeps the
    /// code from whoever intercepts it on the way, not from the browser it was issued to.
    func providerCookie(_ authorization: OpenIDAuthorization, providerID: String, expiresAt: Int64) -> String? {
        try? providerSignIns.token(
            recordID: String(expiresAt), userID: providerID,
            claims: [authorization.state, authorization.nonce, authorization.codeVerifier, authorization.redirectURI])
    }

    /// The authorization a provider cookie keeps for `providerID`, when this server made it.
    func openProviderCookie(_ value: String, providerID: String) -> (authorization: OpenIDAuthorization, expiresAt: Int64)? {
        guard let (expiry, provider, claims) = providerSignIns.open(value, claimCount: 4), provider == providerID,
            let expiresAt = Int64(expiry)
        else { return nil }
        return (OpenIDAuthorization(url: "", state: claims[0], nonce: claims[1], codeVerifier: claims[2], redirectURI: claims[3]), expiresAt)
    }

    /// The cookie value naming `sessionID` of `userID`.
    func token(sessionID: String, userID: String) -> String? {
        try? tokens.token(recordID: sessionID, userID: userID)
    }

    /// The session and user a cookie names, when this server made it.
    func open(_ token: String) -> (sessionID: String, userID: String)? {
        guard let (sessionID, userID, _) = tokens.open(token) else { return nil }
        return (sessionID, userID)
    }

    /// The CSRF token of forms bound to `binding` (a session id or a seed).
    func csrfToken(for binding: String) -> String {
        guard let digest = try? keys.codeDigest(binding, context: Self.csrfContext) else { return "" }
        return Base64URL.encode(digest)
    }

    /// Whether `presented` is the CSRF token of `binding`, under the current key or a previous
    /// one, compared in constant time.
    func checkCSRF(_ presented: String?, binding: String?) -> Bool {
        guard let presented, let binding, let bytes = Base64URL.decode(presented),
            let digests = try? keys.codeDigests(binding, context: Self.csrfContext)
        else { return false }
        var matched = false
        for digest in digests where ConstantTime.equal(digest, bytes) { matched = true }
        return matched
    }

    static let csrfContext = "otpkit-server page form"

    /// A new seed: 128 random bits from OpenSSL's CSPRNG, in hex.
    static func newSeed() -> String? {
        try? RandomToken.hex(byteCount: 16)
    }
}
