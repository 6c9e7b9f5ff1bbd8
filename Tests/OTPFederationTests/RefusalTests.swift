import JWTKit
import OTPAuthentication
import OTPFederation
import OTPLoopbackHTTP
import Testing

/// Tokens the verifier must refuse, each with a message that names the reason and quotes no part
/// of the token (``expectRejected(_:by:nonce:mentioning:sourceLocation:)`` checks both).
@Suite struct RefusalTests {
    @Test func signatureByAnotherKeyUnderTheSameKeyID() async throws {
        try await withVerifier { provider, clock, verifier in
            let impostor = try TestIdentityProvider.SigningKey.generate()
            let token = try await provider.idToken(issuedAt: clock.now, signingKey: impostor.privateKey)
            await expectRejected(token, by: verifier, mentioning: ["signature does not match", provider.currentKey.kid])
        }
    }

    @Test func alteredPayload() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(subject: "user-1", issuedAt: clock.now)
            let parts = token.split(separator: ".").map(String.init)
            // The same signature over another subject.
            let forged = assembledToken(
                header: #"{"alg":"RS256","kid":"\#(provider.currentKey.kid)","typ":"JWT"}"#, payload: validClaimsJSON(provider, at: clock.now),
                signature: parts[2])
            await expectRejected(forged, by: verifier, mentioning: ["signature does not match"])
        }
    }

    @Test func unknownKeyIDAfterOneRefresh() async throws {
        try await withVerifier { provider, clock, verifier in
            let valid = try await provider.idToken(issuedAt: clock.now)
            _ = try await verifier.verify(idToken: valid, nonce: nil)
            #expect(provider.jwksRequestCount == 1)

            let stranger = try TestIdentityProvider.SigningKey.generate(kid: "nobody-publishes-this")
            let token = try await provider.idToken(issuedAt: clock.now, kid: stranger.kid, signingKey: stranger.privateKey)
            await expectRejected(token, by: verifier, mentioning: ["signed by a key the provider does not publish", "nobody-publishes-this"])
            #expect(provider.jwksRequestCount == 2, "exactly one refresh for the unknown key id")

            // More garbage at once and right after: no more fetches until the interval has passed.
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { await expectRejected(token, by: verifier, mentioning: ["does not publish"]) } }
            }
            #expect(provider.jwksRequestCount == 2, "refreshes for unknown key ids are rate-limited")
            clock.advance(by: 29)
            await expectRejected(token, by: verifier, mentioning: ["does not publish", "less than 30 s ago"])
            #expect(provider.jwksRequestCount == 2)
            clock.advance(by: 2)
            await expectRejected(token, by: verifier, mentioning: ["does not publish", "fetched again just now"])
            #expect(provider.jwksRequestCount == 3)
        }
    }

    @Test func wrongIssuer() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(issuer: "https://evil.example", issuedAt: clock.now)
            let message = await expectRejected(token, by: verifier, mentioning: ["issued by \"https://evil.example\"", "oidc.test"])
            // The message reaches clients: it names what the token said, never what the server accepts.
            #expect(message?.contains(provider.issuer) == false, "\(message ?? "")")
            let none = try await provider.idToken(issuedAt: clock.now, omitting: ["iss"])
            await expectRejected(none, by: verifier, mentioning: ["no issuer (iss)"])
        }
    }

    @Test func wrongAudience() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(audience: "another-app.apps.example", issuedAt: clock.now)
            let message = await expectRejected(token, by: verifier, mentioning: ["audience \"another-app.apps.example\"", "client id"])
            #expect(message?.contains(provider.audience) == false, "\(message ?? "")")
            let none = try await provider.idToken(issuedAt: clock.now, omitting: ["aud"])
            await expectRejected(none, by: verifier, mentioning: ["no audience (aud)"])
        }
    }

    @Test func expiredBeyondTheClockSkew() async throws {
        try await withVerifier(clockSkew: .seconds(60)) { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now - 3660, expiresIn: 3600)
            await expectRejected(token, by: verifier, mentioning: ["expired 60 s ago", "clock skew of 60 s"])
            let valid = try await provider.idToken(issuedAt: clock.now)
            _ = try await verifier.verify(idToken: valid, nonce: nil)
            clock.advance(by: 3600 + 60)
            await expectRejected(valid, by: verifier, mentioning: ["expired"])
            let none = try await provider.idToken(issuedAt: clock.now, omitting: ["exp"])
            await expectRejected(none, by: verifier, mentioning: ["no expiry (exp)"])
        }
    }

    @Test func notYetValidBeyondTheClockSkew() async throws {
        try await withVerifier(clockSkew: .seconds(60)) { provider, clock, verifier in
            let notBefore = try await provider.idToken(issuedAt: clock.now, notBefore: clock.now + 61)
            await expectRejected(notBefore, by: verifier, mentioning: ["not valid until 61 s from now", "nbf"])
            let issuedLater = try await provider.idToken(issuedAt: clock.now + 61)
            await expectRejected(issuedLater, by: verifier, mentioning: ["issued 61 s in the future", "iat"])
            let noIssueTime = try await provider.idToken(issuedAt: clock.now, omitting: ["iat"])
            await expectRejected(noIssueTime, by: verifier, mentioning: ["no issue time (iat)"])
        }
    }

    @Test func zeroClockSkewIsExact() async throws {
        try await withVerifier(clockSkew: .zero) { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now - 3600, expiresIn: 3600)
            await expectRejected(token, by: verifier, mentioning: ["expired 0 s ago"])
            let justValid = try await provider.idToken(issuedAt: clock.now - 3599, expiresIn: 3600)
            #expect(try await verifier.verify(idToken: justValid, nonce: nil).subject == "test-user-1")
        }
    }

    @Test func unsignedTokenWithAlgorithmNone() async throws {
        try await withVerifier { provider, clock, verifier in
            for algorithm in ["none", "None", "NONE"] {
                let token = assembledToken(
                    header: #"{"alg":"\#(algorithm)","kid":"\#(provider.currentKey.kid)","typ":"JWT"}"#,
                    payload: validClaimsJSON(provider, at: clock.now))
                await expectRejected(token, by: verifier, mentioning: ["unsigned (alg none)"])
            }
            #expect(provider.jwksRequestCount == 0, "refused before any key is fetched")
        }
    }

    /// The classic key confusion: HS256 with the provider's public key (which anyone can fetch) as
    /// the HMAC secret, so a verifier that lets the token pick the algorithm "verifies" it.
    @Test func hmacTokenKeyedWithThePublicKey() async throws {
        try await withVerifier { provider, clock, verifier in
            let kid = provider.currentKey.kid
            let secrets = try [provider.currentKey.publicKeyPEM, provider.jwksJSON()]
            for secret in secrets {
                let keys = JWTKeyCollection()
                await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
                let token = try await keys.sign(ForgedClaims(provider: provider, time: clock.now), kid: JWKIdentifier(string: kid))
                #expect(token.hasPrefix("eyJ"))
                await expectRejected(token, by: verifier, mentioning: ["HMAC", "HS256", "key confusion"])
            }
        }
    }

    @Test func algorithmNotAllowed() async throws {
        try await withVerifier { provider, clock, verifier in
            let keys = JWTKeyCollection()
            await keys.add(rsa: provider.currentKey.privateKey, digestAlgorithm: .sha512, kid: JWKIdentifier(string: provider.currentKey.kid))
            let token = try await keys.sign(ForgedClaims(provider: provider, time: clock.now), kid: JWKIdentifier(string: provider.currentKey.kid))
            await expectRejected(token, by: verifier, mentioning: ["\"RS512\"", "not allowed", "allowed: RS256"])
        }
    }

    @Test func malformedTokens() async throws {
        try await withVerifier { provider, clock, verifier in
            let valid = try await provider.idToken(issuedAt: clock.now)
            let parts = valid.split(separator: ".").map(String.init)
            await expectRejected("", by: verifier, mentioning: ["empty"])
            await expectRejected(parts[0] + "." + parts[1], by: verifier, mentioning: ["2 dot-separated parts", "three"])
            await expectRejected(valid + ".extra", by: verifier, mentioning: ["4 dot-separated parts"])
            await expectRejected("not a token", by: verifier, mentioning: ["1 dot-separated part,"])
            await expectRejected("!!!!.????." + parts[2], by: verifier, mentioning: ["malformed", "not base64url"])
            let notJSON = TestIdentityProvider.base64URL(Array("this is not JSON".utf8))
            await expectRejected(parts[0] + "." + notJSON + "." + parts[2], by: verifier, mentioning: ["malformed", "not a JSON object"])
            let array = TestIdentityProvider.base64URL(Array("[1,2,3]".utf8))
            await expectRejected(array + "." + parts[1] + "." + parts[2], by: verifier, mentioning: ["malformed", "not a JSON object"])
            await expectRejected(String(repeating: "a", count: 20_000) + ".b.c", by: verifier, mentioning: ["more than any ID token"])
            #expect(provider.jwksRequestCount == 0, "refused before any key is fetched")
        }
    }

    @Test func missingOrEmptySubject() async throws {
        try await withVerifier { provider, clock, verifier in
            let missing = try await provider.idToken(issuedAt: clock.now, omitting: ["sub"])
            await expectRejected(missing, by: verifier, mentioning: ["no subject (sub)"])
            let empty = try await provider.idToken(subject: "", issuedAt: clock.now)
            await expectRejected(empty, by: verifier, mentioning: ["no subject (sub)"])
        }
    }

    @Test func criticalHeaderExtensions() async throws {
        try await withVerifier { provider, clock, verifier in
            let keys = JWTKeyCollection()
            let kid = JWKIdentifier(string: provider.currentKey.kid)
            await keys.add(rsa: provider.currentKey.privateKey, digestAlgorithm: .sha256, kid: kid)
            var header = JWTHeader()
            header.crit = ["exp"]
            let token = try await keys.sign(ForgedClaims(provider: provider, time: clock.now), kid: kid, header: header)
            await expectRejected(token, by: verifier, mentioning: ["critical (crit)"])
        }
    }

    /// Valid claims for tokens a test signs with jwt-kit directly, under a header or key the
    /// provider would not use.
    struct ForgedClaims: JWTPayload {
        let iss: String
        let sub: String
        let aud: String
        let iat: Int
        let exp: Int

        init(provider: TestIdentityProvider, time: Double) {
            iss = provider.issuer
            sub = "forged-user"
            aud = provider.audience
            iat = Int(time)
            exp = Int(time) + 3600
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
