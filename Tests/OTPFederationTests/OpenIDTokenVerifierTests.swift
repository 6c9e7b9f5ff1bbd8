import OTPAuthentication
import OTPFederation
import OTPLoopbackHTTP
import Testing

/// Tokens the verifier accepts, and what it returns for them.
@Suite struct OpenIDTokenVerifierTests {
    @Test func validTokenGivesTheIdentityItNames() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(
                subject: "110169484474386276334", email: "ada@example.com", emailVerified: .bool(true), name: "Ada Lovelace",
                picture: "https://example.com/ada.png", issuedAt: clock.now)
            let identity = try await verifier.verify(idToken: token, nonce: nil)
            #expect(
                identity
                    == VerifiedIdentity(
                        subject: "110169484474386276334", email: "ada@example.com", isEmailVerified: true, displayName: "Ada Lovelace",
                        photoURL: "https://example.com/ada.png"))
            #expect(verifier.providerID == "oidc.test")
        }
    }

    @Test func emailVerifiedAsBooleanOrString() async throws {
        try await withVerifier { provider, clock, verifier in
            let cases: [(TestIdentityProvider.EmailVerified?, Bool)] = [
                (.bool(true), true), (.bool(false), false), (.string("true"), true), (.string("false"), false), (nil, false),
            ]
            for (claim, expected) in cases {
                let token = try await provider.idToken(emailVerified: claim, issuedAt: clock.now)
                let identity = try await verifier.verify(idToken: token, nonce: nil)
                #expect(identity.isEmailVerified == expected, "email_verified \(String(describing: claim))")
            }
            let odd = try await provider.idToken(emailVerified: .string("maybe"), issuedAt: clock.now)
            await expectRejected(odd, by: verifier, mentioning: ["email_verified"])
        }
    }

    @Test func minimalTokenGivesSubjectOnly() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(subject: "s-1", email: nil, emailVerified: nil, name: nil, issuedAt: clock.now)
            #expect(try await verifier.verify(idToken: token, nonce: nil) == VerifiedIdentity(subject: "s-1"))
        }
    }

    @Test func audienceListContainingAClientIDIsAccepted() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(audience: "someone-else", additionalAudiences: [provider.audience], issuedAt: clock.now)
            #expect(try await verifier.verify(idToken: token, nonce: nil).subject == "test-user-1")
        }
    }

    @Test func timesWithinTheClockSkewAreAccepted() async throws {
        try await withVerifier(clockSkew: .seconds(60)) { provider, clock, verifier in
            // Expired 59 s ago; issued 59 s in the future; valid from 59 s from now.
            let expired = try await provider.idToken(issuedAt: clock.now - 3659, expiresIn: 3600)
            let early = try await provider.idToken(issuedAt: clock.now + 59)
            let notBefore = try await provider.idToken(issuedAt: clock.now, notBefore: clock.now + 59)
            for token in [expired, early, notBefore] {
                #expect(try await verifier.verify(idToken: token, nonce: nil).subject == "test-user-1")
            }
        }
    }

    @Test func nonceMatchesRawOrHashed() async throws {
        try await withVerifier { provider, clock, verifier in
            let nonce = "n-0S6_WzA2Mj"
            let raw = try await provider.idToken(issuedAt: clock.now, nonce: nonce)
            #expect(try await verifier.verify(idToken: raw, nonce: nonce).subject == "test-user-1")

            // SHA-256 of the raw nonce in lowercase hexadecimal, as Firebase and Apple send it.
            let digest = sha256Hex(nonce)
            #expect(digest == "0823a09b54cb9381561068b00aaf4e539b3f54604631d3e6a820879b6b04cc19")
            let hashedToken = try await provider.idToken(issuedAt: clock.now, nonce: digest)
            #expect(try await verifier.verify(idToken: hashedToken, nonce: nonce).subject == "test-user-1")
            let upper = try await provider.idToken(issuedAt: clock.now, nonce: digest.uppercased())
            #expect(try await verifier.verify(idToken: upper, nonce: nonce).subject == "test-user-1")

            // Without an expected nonce the claim is not checked.
            #expect(try await verifier.verify(idToken: raw, nonce: nil).subject == "test-user-1")
        }
    }

    @Test func wrongOrMissingNonceIsRefused() async throws {
        try await withVerifier { provider, clock, verifier in
            let other = try await provider.idToken(issuedAt: clock.now, nonce: "another-sign-in")
            await expectRejected(other, by: verifier, nonce: "this-sign-in", mentioning: ["nonce", "replay"])
            // The hash of the token's nonce is not the nonce: only raw-to-raw or raw-to-hash match.
            let hashedOfOther = try await provider.idToken(issuedAt: clock.now, nonce: sha256Hex("another-sign-in"))
            await expectRejected(hashedOfOther, by: verifier, nonce: "this-sign-in", mentioning: ["nonce"])
            let none = try await provider.idToken(issuedAt: clock.now)
            await expectRejected(none, by: verifier, nonce: "this-sign-in", mentioning: ["carries no nonce"])
        }
    }

    @Test func maximumTokenAgeRefusesOldTokens() async throws {
        try await withVerifier(maximumTokenAge: .seconds(600)) { provider, clock, verifier in
            let fresh = try await provider.idToken(issuedAt: clock.now - 600)
            #expect(try await verifier.verify(idToken: fresh, nonce: nil).subject == "test-user-1")
            let old = try await provider.idToken(issuedAt: clock.now - 700)
            await expectRejected(old, by: verifier, mentioning: ["maximum token age of 600 s"])
        }
    }

    @Test func tokenWithoutKeyIDIsAcceptedOnlyWhenOneKeyCouldHaveSignedIt() async throws {
        try await withVerifier { provider, clock, verifier in
            let token = try await provider.idToken(issuedAt: clock.now, includesKeyID: false)
            #expect(try await verifier.verify(idToken: token, nonce: nil).subject == "test-user-1")

            try provider.rotate()
            clock.advance(by: 3601)
            let ambiguous = try await provider.idToken(issuedAt: clock.now, includesKeyID: false)
            await expectRejected(ambiguous, by: verifier, mentioning: ["names no key id", "2 keys"])
        }
    }

    @Test func googleSettings() throws {
        let google = try OpenIDProviderSettings.google(clientIDs: ["1234-abc.apps.googleusercontent.com"])
        #expect(google.providerID == "google.com")
        #expect(google.issuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(google.audiences == ["1234-abc.apps.googleusercontent.com"])
        #expect(google.keySource == .url("https://www.googleapis.com/oauth2/v3/certs"))
        #expect(google.allowedAlgorithms == ["RS256"])
        #expect(google.clockSkew == .seconds(60))
        #expect(throws: OpenIDProviderSettingsError.noAudiences) { try OpenIDProviderSettings.google(clientIDs: []) }
    }
}
