import OTPAuthentication
import OTPServer
import Testing

/// `firebase.identities` and `phone_number` as Firebase's tokens carry them (IDENTITY-TOOLKIT.md
/// C.12): the user's address under `email` and number under `phone` whichever provider brought
/// them, every other provider by the user's id there, and no `password` entry.
@Suite struct IDTokenIdentitiesTests {
    static func claims(_ identity: FirstFactorIdentity) async throws -> IDTokenClaims {
        let service = try MultiFactorService(store: InMemoryAuthStore(), clock: ManualAuthClock(1_800_000_000))
        let user = try await service.signIn(identity)
        let issuer = await IDTokenIssuer(projectID: "demo-otpkit", signingKey: try IDTokenSigningKey.generate(algorithm: .es256))
        return issuer.claims(for: user, authTime: user.authenticatedAt)
    }

    @Test func aPasswordUserIsListedByAddress() async throws {
        let claims = try await Self.claims(
            FirstFactorIdentity(
                userID: "ada", email: "ada@example.com", isEmailVerified: true, provider: .password,
                providerData: [ProviderIdentity(providerID: "password", providerUID: "ada@example.com", email: "ada@example.com")]))
        #expect(claims.firebase.identities == ["email": ["ada@example.com"]])
        #expect(claims.phoneNumber == nil)
    }

    @Test func aProviderUserWithAnAddressIsListedByBoth() async throws {
        let claims = try await Self.claims(
            FirstFactorIdentity(
                userID: "bob", email: "bob@example.com", isEmailVerified: true, provider: .google,
                providerData: [ProviderIdentity(providerID: "google.com", providerUID: "g-bob", email: "bob@example.com")]))
        #expect(claims.firebase.identities == ["google.com": ["g-bob"], "email": ["bob@example.com"]])
    }

    @Test func aPhoneUserIsListedByNumberAndCarriesIt() async throws {
        let claims = try await Self.claims(
            FirstFactorIdentity(
                userID: "cy", email: nil, isEmailVerified: false, provider: .phone,
                providerData: [ProviderIdentity(providerID: "phone", providerUID: "+12015550123", phoneNumber: "+12015550123")]))
        #expect(claims.firebase.identities == ["phone": ["+12015550123"]])
        #expect(claims.phoneNumber == "+12015550123")
        #expect(claims.email == nil)
    }

    @Test func anAnonymousUserHasNoIdentities() async throws {
        let claims = try await Self.claims(FirstFactorIdentity(userID: "anon", email: nil, isEmailVerified: false, provider: .anonymous))
        #expect(claims.firebase.identities.isEmpty)
        #expect(claims.providerID == "anonymous")
    }
}
