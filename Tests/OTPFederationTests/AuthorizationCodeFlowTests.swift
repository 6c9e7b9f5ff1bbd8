import Foundation
import OTPFederation
import OTPLoopbackHTTP
import Testing

/// The authorization code flow against the test provider's real `/token` endpoint: the request's
/// parameters, the exchange with the PKCE verifier and the client secret, the token checked with
/// the authorization's nonce, and every refusal (a code used twice, a verifier or secret that is
/// not the one, a provider that answers no token or is gone) as an error that quotes no secret.
@Suite("OpenID Connect authorization code flow")
struct AuthorizationCodeFlowTests {
    static let redirectURI = "http://127.0.0.1:8080/account/providers/oidc.test/callback"

    /// A provider on the test's clock, a client of it (with `secret`, when given) and a verifier of its tokens.
    func withClient(
        secret: String? = nil, _ body: (TestIdentityProvider, OpenIDAuthorizationClient, OpenIDTokenVerifier) async throws -> Void
    ) async throws {
        let clock = TestClock()
        let provider = try await TestIdentityProvider.start(clock: clock.source)
        provider.setClientSecret(secret)
        let client = OpenIDAuthorizationClient(
            settings: try OpenIDAuthorizationSettings(
                providerID: "oidc.test", displayName: "Test ID", clientID: provider.audience, clientSecret: secret,
                authorizationEndpoint: provider.authorizationEndpoint, tokenEndpoint: provider.tokenEndpoint))
        let verifier = OpenIDTokenVerifier(
            settings: try OpenIDProviderSettings(
                providerID: "oidc.test", issuers: [provider.issuer], audiences: [provider.audience], keySource: .url(provider.jwksURL)),
            clock: clock.source)
        do {
            try await body(provider, client, verifier)
        } catch {
            try? await provider.stop()
            throw error
        }
        try await provider.stop()
    }

    static func query(_ url: String) throws -> [String: String] {
        let items = try #require(URLComponents(string: url)?.queryItems)
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    static func code(_ location: String) throws -> String {
        try #require(try query(location)["code"])
    }

    @Test("a confidential client: the request carries state, nonce and an S256 challenge; the code gives an ID token with the nonce, once")
    func confidentialClient() async throws {
        try await withClient(secret: "s3cret+/=&") { provider, client, verifier in
            let authorization = try client.authorization(redirectURI: Self.redirectURI)
            let parameters = try Self.query(authorization.url)
            #expect(authorization.url.hasPrefix(provider.authorizationEndpoint + "?"))
            #expect(parameters["response_type"] == "code" && parameters["client_id"] == provider.audience)
            #expect(parameters["redirect_uri"] == Self.redirectURI && parameters["scope"] == "openid email profile")
            #expect(parameters["state"] == authorization.state && parameters["nonce"] == authorization.nonce)
            #expect(parameters["code_challenge_method"] == "S256" && parameters["code_challenge"] != authorization.codeVerifier)
            #expect(authorization.state.count == 43 && authorization.codeVerifier.count == 43, "256 bits each, base64url")
            let again = try client.authorization(redirectURI: Self.redirectURI)
            #expect(Set([again.state, again.nonce, again.codeVerifier]).isDisjoint(with: [authorization.state, authorization.nonce]))

            let location = try provider.approve(authorization.url, subject: "person-7", email: "p7@example.com")
            #expect(try Self.query(location)["state"] == authorization.state)
            let code = try Self.code(location)
            let idToken = try await client.idToken(code: code, for: authorization)
            let identity = try await verifier.verify(idToken: idToken, nonce: authorization.nonce)
            #expect(identity.subject == "person-7" && identity.email == "p7@example.com")
            await #expect(throws: OpenIDAuthorizationError.codeRefused("invalid_grant"), "the same code twice") {
                try await client.idToken(code: code, for: authorization)
            }
            // The token of one authorization does not pass for another's: the nonce differs.
            await expectRejected(idToken, by: verifier, nonce: again.nonce, mentioning: ["nonce"])
        }
    }

    @Test("a code exchanged with another authorization's verifier or redirect URI, or by a client without the secret, is refused")
    func refusedExchanges() async throws {
        try await withClient(secret: "right secret") { provider, client, _ in
            let first = try client.authorization(redirectURI: Self.redirectURI)
            let second = try client.authorization(redirectURI: Self.redirectURI)
            let stolen = try Self.code(try provider.approve(first.url))
            await #expect(throws: OpenIDAuthorizationError.codeRefused("invalid_grant"), "another authorization's verifier") {
                try await client.idToken(code: stolen, for: second)
            }
            let elsewhere = try client.authorization(redirectURI: Self.redirectURI)
            let moved = OpenIDAuthorization(
                url: elsewhere.url, state: elsewhere.state, nonce: elsewhere.nonce, codeVerifier: elsewhere.codeVerifier,
                redirectURI: "http://127.0.0.1:8080/elsewhere")
            let code = try Self.code(try provider.approve(elsewhere.url))
            await #expect(throws: OpenIDAuthorizationError.codeRefused("invalid_grant"), "another redirect URI") {
                try await client.idToken(code: code, for: moved)
            }
            let impostor = OpenIDAuthorizationClient(
                settings: try OpenIDAuthorizationSettings(
                    providerID: "oidc.test", clientID: provider.audience, clientSecret: "wrong secret",
                    authorizationEndpoint: provider.authorizationEndpoint, tokenEndpoint: provider.tokenEndpoint))
            let third = try impostor.authorization(redirectURI: Self.redirectURI)
            let thirdCode = try Self.code(try provider.approve(third.url))
            await #expect(throws: OpenIDAuthorizationError.codeRefused("invalid_client")) {
                try await impostor.idToken(code: thirdCode, for: third)
            }
        }
    }

    @Test("a public client sends its id in the form; a provider answering no token, or none at all, is unavailable, never quoted")
    func publicClientAndBrokenProviders() async throws {
        try await withClient { provider, client, verifier in
            let authorization = try client.authorization(redirectURI: Self.redirectURI)
            let token = try await client.idToken(code: try Self.code(try provider.approve(authorization.url)), for: authorization)
            #expect(try await verifier.verify(idToken: token, nonce: authorization.nonce).subject == "test-user-1")
            let exchange = try #require(provider.server.requests.last { $0.path == TestIdentityProvider.tokenPath })
            #expect(exchange.bodyText.contains("client_id=\(provider.audience)") && exchange.header("Authorization") == nil)
        }
        let noToken = try await LoopbackHTTPServer.start(replying: .init(status: .ok, body: #"{"access_token":"secret-access-token"}"#))
        let client = OpenIDAuthorizationClient(
            settings: try OpenIDAuthorizationSettings(
                providerID: "oidc.test", clientID: "c", clientSecret: nil, authorizationEndpoint: noToken.baseURL + "/authorize",
                tokenEndpoint: noToken.baseURL + "/token"))
        let authorization = try client.authorization(redirectURI: Self.redirectURI)
        do {
            _ = try await client.idToken(code: "the-code", for: authorization)
            Issue.record("a token response without id_token was taken")
        } catch {
            guard case .tokenEndpointUnavailable(let reason) = error else { throw error }
            #expect(reason.contains("no id_token") && !"\(error)".contains("secret-access-token") && !"\(error)".contains("the-code"))
        }
        noToken.setReply(.init(status: .internalServerError, body: "<html>the-code</html>"))
        await #expect(throws: OpenIDAuthorizationError.tokenEndpointUnavailable("it answered HTTP 500")) {
            try await client.idToken(code: "the-code", for: authorization)
        }
        try await noToken.stop()
        await #expect(throws: OpenIDAuthorizationError.self, "a provider that is gone") {
            try await client.idToken(code: "the-code", for: authorization)
        }
    }

    @Test("endpoints must be https, or http on loopback")
    func endpointsChecked() throws {
        #expect(throws: OpenIDProviderSettingsError.insecureEndpointURL("token endpoint", "http://login.example/token")) {
            try OpenIDAuthorizationSettings(
                providerID: "oidc.x", clientID: "c", clientSecret: nil, authorizationEndpoint: "https://login.example/authorize",
                tokenEndpoint: "http://login.example/token?secret=1")
        }
        #expect(throws: OpenIDProviderSettingsError.invalidEndpointURL("authorization endpoint", "login.example")) {
            try OpenIDAuthorizationSettings(
                providerID: "oidc.x", clientID: "c", clientSecret: nil, authorizationEndpoint: "login.example",
                tokenEndpoint: "https://login.example/t")
        }
        let google = try OpenIDAuthorizationSettings.google(clientID: "1-a.apps.googleusercontent.com", clientSecret: "s")
        #expect(google.providerID == "google.com" && google.scopes == ["openid", "email", "profile"])
    }
}
