import CryptoExtras
import Foundation
public import JWTKit
import Synchronization

/// An OpenID Connect provider for tests, on a ``LoopbackHTTPServer``: RSA keys with key ids, its
/// key set at `/jwks` with a `Cache-Control` header, key rotation, and ID tokens signed by
/// jwt-kit with any claims a test needs, valid or not.
///
/// Shared by every test of federated sign-in (the verifier, the enrollment service, the CLI), so
/// that they all meet one provider whose tokens an independent implementation (PyJWT) accepts.
public final class TestIdentityProvider: Sendable {
    /// One signing key and the key id it is published under.
    public struct SigningKey: Sendable {
        public let kid: String
        public let privateKey: JWTKit.Insecure.RSA.PrivateKey

        public init(kid: String, privateKey: JWTKit.Insecure.RSA.PrivateKey) {
            self.kid = kid
            self.privateKey = privateKey
        }

        /// A new 2048-bit RSA key under `kid` (a random one when nil).
        public static func generate(kid: String? = nil) throws -> SigningKey {
            let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            return SigningKey(kid: kid ?? "test-\(UUID().uuidString.prefix(8).lowercased())", privateKey: key)
        }

        /// The public key as the provider publishes it (RFC 7517 section 9.3 members n and e).
        public var jwk: JWK {
            get throws {
                let (modulus, exponent) = try privateKey.publicKey.getKeyPrimitives()
                return JWK.rsa(
                    .rs256, identifier: JWKIdentifier(string: kid), modulus: TestIdentityProvider.base64URL(modulus),
                    exponent: TestIdentityProvider.base64URL(exponent))
            }
        }

        /// The public key in PEM (SubjectPublicKeyInfo), as other JOSE libraries take it.
        public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

        /// The private key in PEM, for another implementation to sign with.
        public var privateKeyPEM: String { privateKey.pemRepresentation }
    }

    /// The `email_verified` claim in the forms providers send.
    public enum EmailVerified: Sendable {
        case bool(Bool)
        /// `"true"` or `"false"` as a string, as some providers send it; any other text for a test.
        case string(String)
    }

    /// The client id tokens are issued for unless a test names another.
    public static let defaultAudience = "otpkit-tests.apps.example"
    /// Where the key set is served.
    public static let jwksPath = "/jwks"

    public let server: LoopbackHTTPServer
    /// The client id tokens are issued for by default.
    public let audience: String
    /// The time tokens are issued at by default, in Unix seconds: the test's clock, so that a
    /// token is as old as the server it is checked by thinks, however slowly the test runs.
    public let clock: @Sendable () -> Double
    let state: Shared

    /// The issuer (`iss`) of the tokens: the server's base URL, as a real provider's is its own.
    public var issuer: String { server.baseURL }
    /// The URL of the key set.
    public var jwksURL: String { server.baseURL + Self.jwksPath }
    /// How many times the key set was fetched.
    public var jwksRequestCount: Int { server.requestCount(path: Self.jwksPath) }
    /// The key new tokens are signed with.
    public var currentKey: SigningKey { state.value.withLock { $0.current } }
    /// Every key the key set publishes, the current one first.
    public var publishedKeys: [SigningKey] { state.value.withLock { $0.published } }

    private final class ProviderBox: Sendable {
        let value = Mutex<TestIdentityProvider?>(nil)
    }

    final class Shared: Sendable {
        let value: Mutex<State>
        init(_ state: State) { value = Mutex(state) }
    }

    struct State {
        var current: SigningKey
        var published: [SigningKey]
        var cacheControl: String?
        /// When set, `/jwks` answers this instead of the key set.
        var override: LoopbackHTTPServer.Reply?
        /// The codes approved and not yet exchanged, by code.
        var grants: [String: Grant] = [:]
        /// The secret `/token` requires of the client (HTTP Basic), when set.
        var clientSecret: String?
        /// Who is signed in at the provider and consents to every request at `/authorize`.
        var person: Person?
    }

    private init(server: LoopbackHTTPServer, audience: String, clock: @escaping @Sendable () -> Double, state: Shared) {
        self.server = server
        self.audience = audience
        self.clock = clock
        self.state = state
    }

    /// Starts a provider with one new key, its key set served with `cacheControl` (none: no header),
    /// issuing tokens at `clock`'s time (the real time by default).
    public static func start(
        audience: String = defaultAudience, cacheControl: String? = "public, max-age=3600",
        clock: @escaping @Sendable () -> Double = TestIdentityProvider.systemTime
    ) async throws -> TestIdentityProvider {
        let key = try SigningKey.generate()
        let shared = Shared(State(current: key, published: [key], cacheControl: cacheControl))
        // The authorization endpoint answers for the provider, which exists once the server does.
        let provider = ProviderBox()
        let server = try await LoopbackHTTPServer.start { request in
            request.path == Self.authorizationPath
                ? Self.authorizationReply(to: request, provider: provider.value.withLock { $0 }) : Self.reply(to: request, state: shared)
        }
        let made = TestIdentityProvider(server: server, audience: audience, clock: clock, state: shared)
        provider.value.withLock { $0 = made }
        return made
    }

    /// The system's time in Unix seconds, the default clock.
    public static let systemTime: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    public func stop() async throws {
        try await server.stop()
    }

    /// Signs new tokens with a new key, published from now on; the previous keys stay published
    /// (a provider publishes a key before and after it signs with it) unless `keepingPrevious` is false.
    @discardableResult
    public func rotate(keepingPrevious: Bool = true) throws -> SigningKey {
        let key = try SigningKey.generate()
        state.value.withLock { state in
            state.current = key
            state.published = [key] + (keepingPrevious ? state.published : [])
        }
        return key
    }

    /// Publishes `key` besides the others (a key generated elsewhere, for another signer).
    public func publish(_ key: SigningKey) {
        state.value.withLock { $0.published.append(key) }
    }

    /// The `Cache-Control` header of later key set answers (none: no header).
    public func setCacheControl(_ value: String?) {
        state.value.withLock { $0.cacheControl = value }
    }

    /// Answers `/jwks` with `reply` instead of the key set (an outage, garbage); nil restores it.
    public func setKeySetOverride(_ reply: LoopbackHTTPServer.Reply?) {
        state.value.withLock { $0.override = reply }
    }

    /// The key set document as `/jwks` serves it.
    public func jwksJSON() throws -> String {
        try Self.jwksJSON(state.value.withLock { $0.published })
    }

    /// An ID token signed with jwt-kit (RS256) by the current key, or the key `kid` names, or
    /// `signingKey` under the key id `kid`. Every claim has a valid default; `omitting` leaves
    /// claims out by name (`iss`, `sub`, `exp`, …).
    public func idToken(
        subject: String = "test-user-1",
        email: String? = "user@example.com",
        emailVerified: EmailVerified? = .bool(true),
        name: String? = "Test User",
        picture: String? = nil,
        audience: String? = nil,
        additionalAudiences: [String] = [],
        issuer: String? = nil,
        issuedAt: Double? = nil,
        expiresIn: Double = 3600,
        notBefore: Double? = nil,
        nonce: String? = nil,
        kid: String? = nil,
        signingKey: JWTKit.Insecure.RSA.PrivateKey? = nil,
        includesKeyID: Bool = true,
        omitting: Set<String> = []
    ) async throws -> String {
        let issued = issuedAt ?? clock().rounded(.down)
        var claims = requiredClaims(
            subject: subject, audiences: [audience ?? self.audience] + additionalAudiences, issuer: issuer, issuedAt: issued, expiresIn: expiresIn)
        if let email { claims["email"] = .string(email) }
        switch emailVerified {
        case .bool(let flag): claims["email_verified"] = .bool(flag)
        case .string(let text): claims["email_verified"] = .string(text)
        case nil: break
        }
        if let name { claims["name"] = .string(name) }
        if let picture { claims["picture"] = .string(picture) }
        if let notBefore { claims["nbf"] = .number(notBefore) }
        if let nonce { claims["nonce"] = .string(nonce) }
        for claim in omitting { claims[claim] = nil }

        let (key, keyID): (JWTKit.Insecure.RSA.PrivateKey, String) = try state.value.withLock { state in
            let keyID = kid ?? state.current.kid
            if let signingKey { return (signingKey, keyID) }
            guard let published = state.published.first(where: { $0.kid == keyID }) else { throw UnknownKey(kid: keyID) }
            return (published.privateKey, keyID)
        }
        let keys = JWTKeyCollection()
        if includesKeyID {
            await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
            return try await keys.sign(Claims(values: claims), kid: JWKIdentifier(string: keyID))
        }
        await keys.add(rsa: key, digestAlgorithm: .sha256)
        return try await keys.sign(Claims(values: claims))
    }

    /// The claims every ID token has: issuer, subject, audience, issue and expiry times.
    func requiredClaims(subject: String, audiences: [String], issuer: String? = nil, issuedAt: Double, expiresIn: Double) -> [String: ClaimValue] {
        [
            "iss": .string(issuer ?? self.issuer),
            "sub": .string(subject),
            "aud": audiences.count == 1 ? .string(audiences[0]) : .strings(audiences),
            "iat": .number(issuedAt),
            "exp": .number(issuedAt + expiresIn),
        ]
    }

    /// Signing needs the private key of `kid`, which this provider does not hold.
    public struct UnknownKey: Error, CustomStringConvertible {
        public let kid: String
        public var description: String { "the test provider holds no key \(kid): pass signingKey" }
    }

    /// `bytes` in base64url without padding (RFC 7515 section 2), as JWK members are written.
    public static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func jwksJSON(_ keys: [SigningKey]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(JWKS(keys: try keys.map { try $0.jwk })), as: UTF8.self)
    }

    private static func reply(to request: LoopbackHTTPServer.Request, state: Shared) -> LoopbackHTTPServer.Reply {
        let (published, cacheControl, override) = state.value.withLock { ($0.published, $0.cacheControl, $0.override) }
        switch request.path {
        case jwksPath:
            if let override { return override }
            guard let body = try? jwksJSON(published) else { return .init(status: .internalServerError, body: "{}") }
            return .init(status: .ok, body: body, headers: cacheControl.map { [(name: "Cache-Control", value: $0)] } ?? [])
        case tokenPath:
            return tokenReply(to: request, state: state)
        default:
            return .init(status: .notFound, body: #"{"error":"not found"}"#)
        }
    }

    /// A claim value of the JSON types ID tokens use.
    enum ClaimValue: Encodable, Sendable {
        case string(String)
        case strings([String])
        case number(Double)
        case bool(Bool)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            // Whole seconds as integers, as providers write them.
            case .number(let value):
                if value == value.rounded(), abs(value) < 1e15 { try container.encode(Int(value)) } else { try container.encode(value) }
            case .bool(let value): try container.encode(value)
            }
        }
    }

    struct Claims: JWTPayload {
        let values: [String: ClaimValue]

        private struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(values: [String: ClaimValue]) {
            self.values = values
        }

        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the test provider only signs"))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (name, value) in values { try container.encode(value, forKey: Key(stringValue: name)) }
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

extension TestIdentityProvider: CustomReflectable {
    /// Only the server's port, for the same reason as ``LoopbackHTTPServer``.
    public var customMirror: Mirror { Mirror(self, children: ["port": server.port]) }
}
