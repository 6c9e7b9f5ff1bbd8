import Crypto
import CryptoExtras
import Foundation
import NIOHTTP1

/// The authorization code flow with PKCE (OpenID Connect Core 1.0 section 3.1, RFC 7636): the
/// person's consent is ``approve(_:subject:email:emailVerified:name:)``, which a test calls with the
/// authorization URL a server sent the browser to, as a person clicking "Allow" would; the
/// server then exchanges the code at `/token`, a real HTTP endpoint, which checks what a real
/// provider checks (code once, redirect URI, verifier, client, secret).
extension TestIdentityProvider {
    /// Where the authorization requests go.
    public static let authorizationPath = "/authorize"
    /// Where codes are exchanged.
    public static let tokenPath = "/token"

    public var authorizationEndpoint: String { server.baseURL + Self.authorizationPath }
    public var tokenEndpoint: String { server.baseURL + Self.tokenPath }

    /// A code approved by the person and what its exchange must match.
    struct Grant {
        let clientID: String
        let redirectURI: String
        let challenge: String
        let idToken: String
    }

    /// A request the test provider refuses, as a provider's error page would.
    public struct AuthorizationRefused: Error, CustomStringConvertible {
        public let description: String
    }

    /// Requires `secret` of the client at `/token` (HTTP Basic); `nil` takes a public client.
    public func setClientSecret(_ secret: String?) {
        state.value.withLock { $0.clientSecret = secret }
    }

    /// Someone signed in at the provider, who consents to whatever asks.
    public struct Person: Sendable {
        public var subject: String
        public var email: String?
        public var emailVerified: Bool
        public var name: String?

        public init(subject: String, email: String?, emailVerified: Bool = true, name: String? = nil) {
            self.subject = subject
            self.email = email
            self.emailVerified = emailVerified
            self.name = name
        }
    }

    /// Signs `person` in at the provider: from now on a browser sent to `/authorize` comes back at
    /// once with a code for them (as a provider does for someone signed in who consented before);
    /// `nil` answers `/authorize` with 401.
    public func signIn(_ person: Person?) {
        state.value.withLock { $0.person = person }
    }

    /// The person approves the authorization request `url`: checked as a provider checks it
    /// (this provider's endpoint, `response_type=code`, its client id, `openid` in the scope,
    /// an `S256` challenge), it returns where the provider sends the browser back: the redirect
    /// URI with a new code and the request's `state`. The code's ID token names `subject` and
    /// carries the request's nonce.
    public func approve(
        _ url: String, subject: String = "test-user-1", email: String? = "user@example.com", emailVerified: Bool = true,
        name: String? = "Test User"
    ) throws -> String {
        guard url.hasPrefix(authorizationEndpoint + "?"), let components = URLComponents(string: url) else {
            throw AuthorizationRefused(description: "not this provider's authorization endpoint: \(url)")
        }
        return try grant(components.queryItems ?? [], to: Person(subject: subject, email: email, emailVerified: emailVerified, name: name))
    }

    /// The code of an authorization request's parameters, for `person`: where the browser goes back.
    private func grant(_ items: [URLQueryItem], to person: Person) throws -> String {
        var query: [String: String] = [:]
        for item in items { query[item.name] = item.value ?? "" }
        guard query["response_type"] == "code" else { throw AuthorizationRefused(description: "response_type is not code") }
        guard query["client_id"] == audience else { throw AuthorizationRefused(description: "unknown client_id") }
        guard query["scope"]?.split(separator: " ").contains("openid") == true else { throw AuthorizationRefused(description: "no openid scope") }
        guard query["code_challenge_method"] == "S256", let challenge = query["code_challenge"], challenge.count == 43 else {
            throw AuthorizationRefused(description: "no S256 code challenge")
        }
        guard let redirectURI = query["redirect_uri"], let state = query["state"], !state.isEmpty else {
            throw AuthorizationRefused(description: "no redirect_uri or state")
        }
        var claims = requiredClaims(subject: person.subject, audiences: [audience], issuedAt: clock().rounded(.down), expiresIn: 3600)
        claims["email"] = person.email.map(ClaimValue.string)
        claims["email_verified"] = .bool(person.emailVerified)
        claims["name"] = person.name.map(ClaimValue.string)
        claims["nonce"] = query["nonce"].map(ClaimValue.string)
        let token = try signedNow(claims)
        let code = Self.base64URL((0..<24).map { _ in UInt8.random(in: 0...255) })
        self.state.value.withLock {
            $0.grants[code] = Grant(clientID: audience, redirectURI: redirectURI, challenge: challenge, idToken: token)
        }
        guard var back = URLComponents(string: redirectURI) else { throw AuthorizationRefused(description: "redirect_uri is not a URI") }
        back.queryItems = (back.queryItems ?? []) + [URLQueryItem(name: "code", value: code), URLQueryItem(name: "state", value: state)]
        return back.string ?? redirectURI
    }

    /// `claims` signed RS256 by the current key, at once. Written with swift-crypto rather than
    /// jwt-kit, whose key collection is an actor: `/authorize` answers on NIO's event loop, which
    /// must not wait on the cooperative pool that a busy test run starves.
    private func signedNow(_ claims: [String: ClaimValue]) throws -> String {
        let key = currentKey
        let header = Self.base64URL(Data(#"{"alg":"RS256","kid":"\#(key.kid)","typ":"JWT"}"#.utf8))
        let payload = Self.base64URL(try JSONEncoder().encode(Claims(values: claims)))
        let signer = try _RSA.Signing.PrivateKey(pemRepresentation: key.privateKeyPEM)
        let signature = try signer.signature(for: Data((header + "." + payload).utf8), padding: .insecurePKCS1v1_5)
        return header + "." + payload + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// `/authorize` for a browser: the signed-in person's consent, a redirect back with the code.
    static func authorizationReply(to request: LoopbackHTTPServer.Request, provider: TestIdentityProvider?) -> LoopbackHTTPServer.Reply {
        guard let provider, let person = provider.state.value.withLock({ $0.person }) else {
            return .init(status: .unauthorized, body: "<h1>Nobody is signed in at the test provider</h1>", contentType: "text/html")
        }
        do {
            let location = try provider.grant(URLComponents(string: request.uri)?.queryItems ?? [], to: person)
            return .init(status: .found, body: "", contentType: "text/plain", headers: [(name: "Location", value: location)])
        } catch {
            return .init(status: .badRequest, body: "<h1>\(error)</h1>", contentType: "text/html")
        }
    }

    /// The person declines: where the provider sends the browser back, with `error` (RFC 6749
    /// section 4.1.2.1) and the request's `state`.
    public func decline(_ url: String, error: String = "access_denied") throws -> String {
        guard let components = URLComponents(string: url), let items = components.queryItems,
            let redirectURI = items.first(where: { $0.name == "redirect_uri" })?.value,
            var back = URLComponents(string: redirectURI)
        else { throw AuthorizationRefused(description: "no redirect_uri") }
        back.queryItems = [URLQueryItem(name: "error", value: error), URLQueryItem(name: "state", value: items.first { $0.name == "state" }?.value)]
        return back.string ?? redirectURI
    }

    /// `/token`: RFC 6749 section 4.1.3 with RFC 7636 section 4.6; each code works once.
    static func tokenReply(to request: LoopbackHTTPServer.Request, state: Shared) -> LoopbackHTTPServer.Reply {
        func refusal(_ error: String, status: HTTPResponseStatus = .badRequest) -> LoopbackHTTPServer.Reply {
            .init(status: status, body: #"{"error":"\#(error)"}"#)
        }
        guard request.method == .POST, request.header("Content-Type") == "application/x-www-form-urlencoded" else {
            return refusal("invalid_request")
        }
        var form: [String: String] = [:]
        for pair in request.bodyText.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            form[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        guard form["grant_type"] == "authorization_code", let code = form["code"] else { return refusal("unsupported_grant_type") }
        let (grant, secret) = state.value.withLock { ($0.grants.removeValue(forKey: code), $0.clientSecret) }
        let clientID: String?
        if let secret {
            guard let basic = request.header("Authorization"), basic.hasPrefix("Basic "),
                let decoded = Data(base64Encoded: String(basic.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
                let colon = decoded.firstIndex(of: ":"),
                decoded[decoded.index(after: colon)...].removingPercentEncoding == secret
            else { return refusal("invalid_client", status: .unauthorized) }
            clientID = decoded[..<colon].removingPercentEncoding
        } else {
            clientID = form["client_id"]
        }
        guard let grant, grant.clientID == clientID, grant.redirectURI == form["redirect_uri"], let verifier = form["code_verifier"],
            base64URL(SHA256.hash(data: Data(verifier.utf8))) == grant.challenge
        else { return refusal("invalid_grant") }
        return .init(status: .ok, body: #"{"access_token":"at-\#(code)","token_type":"Bearer","expires_in":3600,"id_token":"\#(grant.idToken)"}"#)
    }
}
