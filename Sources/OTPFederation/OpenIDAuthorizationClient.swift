import OTPCore
import OTPOutbound
import OTPSealing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Signs a person in at an OpenID Connect provider from a web page: the authorization code flow
/// (OpenID Connect Core 1.0 section 3.1) with PKCE (RFC 7636, `S256`), a `state` and a nonce.
///
/// ``authorization(redirectURI:)`` makes the request to send the browser to; when the provider
/// sends it back with a code, and its `state` is the one kept, ``idToken(code:for:)`` exchanges the
/// code at the token endpoint for the ID token. Check that token with the provider's
/// ``OpenIDTokenVerifier`` and the authorization's nonce before trusting it: the exchange itself
/// trusts nothing the token says.
///
/// ```swift
/// let client = OpenIDAuthorizationClient(settings: try .google(clientID: id, clientSecret: secret))
/// let authorization = try client.authorization(redirectURI: "https://example.com/account/providers/google.com/callback")
/// // Keep authorization's state, nonce and verifier; send the browser to authorization.url.
/// let idToken = try await client.idToken(code: returnedCode, for: authorization)
/// ```
public struct OpenIDAuthorizationClient: Sendable {
    /// Where the client sends people and exchanges codes.
    public let settings: OpenIDAuthorizationSettings

    /// The largest token response read; a provider's is a few kilobytes.
    static let responseSizeLimit = 64 * 1024

    /// A client for one provider.
    public init(settings: OpenIDAuthorizationSettings) {
        self.settings = settings
    }

    /// A new authorization request, returning to `redirectURI` (registered at the provider), with
    /// 256 random bits each of state, nonce and code verifier from OpenSSL's CSPRNG.
    /// - Throws: ``OpenIDAuthorizationError/randomUnavailable``.
    public func authorization(redirectURI: String) throws(OpenIDAuthorizationError) -> OpenIDAuthorization {
        let state = try Self.randomText()
        let nonce = try Self.randomText()
        let verifier = try Self.randomText()
        guard let challenge = Checksum.sha256(Array(verifier.utf8)) else { throw .randomUnavailable }
        let parameters = [
            ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", redirectURI),
            ("scope", settings.scopes.joined(separator: " ")), ("state", state), ("nonce", nonce),
            ("code_challenge", Base64URL.encode(challenge)), ("code_challenge_method", "S256"),
        ]
        let endpoint = settings.authorizationEndpoint
        let url = endpoint + (endpoint.contains("?") ? "&" : "?") + Self.formEncoded(parameters)
        return OpenIDAuthorization(url: url, state: state, nonce: nonce, codeVerifier: verifier, redirectURI: redirectURI)
    }

    /// The ID token the provider gives for `code`, the code its redirect brought back for
    /// `authorization` (RFC 6749 section 4.1.3, with the PKCE verifier).
    /// - Throws: ``OpenIDAuthorizationError/codeRefused(_:)`` when the provider refuses the code or
    ///   this client, ``OpenIDAuthorizationError/tokenEndpointUnavailable(_:)`` for any other answer.
    public func idToken(code: String, for authorization: OpenIDAuthorization) async throws(OpenIDAuthorizationError) -> String {
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", authorization.redirectURI),
            ("code_verifier", authorization.codeVerifier),
        ]
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if let secret = settings.clientSecret {
            // RFC 6749 section 2.3.1: each part form-encoded before the two are joined and encoded.
            let credentials = Self.formEncoded(settings.clientID) + ":" + Self.formEncoded(secret)
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        } else {
            form.append(("client_id", settings.clientID))
        }
        let exchange = HTTPExchange(
            .post, settings.tokenEndpoint, headers: headers, body: Array(Self.formEncoded(form).utf8),
            timeout: OpenIDAuthorizationSettings.tokenExchangeTimeout, bodyLimit: Self.responseSizeLimit)
        let answer: HTTPAnswer
        switch await exchange.perform() {
        case .success(let value): answer = value
        case .failure(.timedOut), .failure(.cancelled):
            throw .tokenEndpointUnavailable("no answer within \(Int(OpenIDAuthorizationSettings.tokenExchangeTimeout.seconds)) s")
        case .failure(.noConnection(let detail)), .failure(.brokenOff(let detail)):
            throw .tokenEndpointUnavailable(detail)
        }
        guard answer.ending == .complete else {
            throw .tokenEndpointUnavailable("its answer was longer than \(Self.responseSizeLimit / 1024) KiB or broke off")
        }
        let response = try? JSONDecoder().decode(TokenResponse.self, from: Data(answer.body))
        // RFC 6749 section 5.2: a refusal is HTTP 400 (or 401 for the client) with an `error` code.
        if let error = response?.error, !answer.isSuccess {
            throw .codeRefused(Self.shown(error))
        }
        guard answer.isSuccess else { throw .tokenEndpointUnavailable("it answered HTTP \(answer.status)") }
        guard let idToken = response?.id_token, !idToken.isEmpty else {
            throw .tokenEndpointUnavailable("its answer holds no id_token: ask for the openid scope, and check the token endpoint URL")
        }
        return idToken
    }

    /// The fields of a token response (RFC 6749 sections 5.1 and 5.2) read here.
    private struct TokenResponse: Decodable {
        var id_token: String?
        var error: String?
    }

    /// An OAuth error code as messages show it: RFC 6749's codes are printable ASCII without
    /// quotes or backslashes; anything else, and anything long, is cut.
    private static func shown(_ error: String) -> String {
        String(error.unicodeScalars.prefix(64).filter { $0.isASCII && $0.value > 0x20 && $0 != "\"" && $0 != "\\" })
    }

    /// 32 random bytes in base64url: 43 characters, all unreserved, as RFC 7636 asks of a verifier.
    private static func randomText() throws(OpenIDAuthorizationError) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        guard bytes.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else { throw .randomUnavailable }
        return Base64URL.encode(bytes)
    }

    /// `application/x-www-form-urlencoded` with every byte but RFC 3986's unreserved ones
    /// percent-encoded (a space too, rather than `+`, which every decoder also reads).
    static func formEncoded(_ parameters: [(String, String)]) -> String {
        parameters.map { formEncoded($0.0) + "=" + formEncoded($0.1) }.joined(separator: "&")
    }

    /// Written here rather than with Foundation's `addingPercentEncoding`, whose `CharacterSet`
    /// FoundationEssentials, which this module keeps to, does not have.
    static func formEncoded(_ text: String) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(byte)
            default:
                encoded.append(UInt8(ascii: "%"))
                encoded += Array(Hex.encode([byte]).uppercased().utf8)
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
