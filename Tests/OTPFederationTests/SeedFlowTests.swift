import Foundation
import OTPCore
import OTPAuthentication
import OTPAuthenticationSQLite
import OTPFederation
import OTPLoopbackHTTP
import OTPSealing
import OTPTestUtilities
import Testing

/// Firebase's "link multiple auth providers to an account", end to end: a Google that is a test
/// identity provider on loopback (its own RSA key, JWKS endpoint and signed ID tokens), the real
/// `OpenIDTokenVerifier` fetching its keys over HTTP, and the service on an SQLite database.
@Suite("Seed flows: linking Google to a password account, on SQLite")
struct SeedFlowTests {
    /// The service's clock, read by the verifier too, so a token issued "now" is now for both.
    struct SharedClock: AuthClock {
        let clock: TestClock
        func now() -> Int64 { Int64(clock.now) }
    }

    /// One test's provider, database and service, torn down whatever the test did.
    static func withService(
        _ body: (TestIdentityProvider, TestClock, MultiFactorService, String) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let provider = try await TestIdentityProvider.start()
        let clock = TestClock()
        let settings = try OpenIDProviderSettings(
            providerID: GoogleAuthProvider.id, issuers: [provider.issuer], audiences: [provider.audience], keySource: .url(provider.jwksURL))
        let verifier = OpenIDTokenVerifier(settings: settings, clock: clock.source)
        let path = directory.file("accounts.sqlite")
        let store = try await SQLiteAuthStore.open(path: path, sealer: SecretSealer(current: SealingKey(bytes: Array(repeating: 9, count: 32))))
        var configuration = MultiFactorConfiguration()
        // Cheap enough for a test; the parameters are the hash's, so production strength changes nothing here.
        configuration.passwords = PasswordSettings(hashParameters: try PasswordHashParameters(logN: 10, r: 8, p: 1))
        do {
            let service = try MultiFactorService(
                configuration: configuration, store: store, clock: SharedClock(clock: clock), identityProviders: [verifier])
            try await body(provider, clock, service, path)
        } catch {
            try? await store.close()
            try? await provider.stop()
            throw error
        }
        try await store.close()
        try await provider.stop()
    }

    static func google(_ provider: TestIdentityProvider, _ clock: TestClock, subject: String, email: String) async throws -> AuthCredential {
        let token = try await provider.idToken(subject: subject, email: email, issuedAt: clock.now)
        return GoogleAuthProvider.credential(withIDToken: token, accessToken: nil)
    }

    static func code(_ secret: TOTPSecret, at time: Double) throws -> String {
        let totp = try TOTP(
            secret: OTPSecret(base32: secret.sharedSecretKey()), algorithm: try #require(OTPAlgorithm(name: secret.hashingAlgorithm)),
            digits: secret.codeLength, period: Int64(secret.codeIntervalSeconds))
        return try totp.code(at: Int64(time))
    }

    @Test("a password user links Google, signs in with either as the same user; Google elsewhere is credentialAlreadyInUse")
    func linkGoogleToPasswordUser() async throws {
        try await Self.withService { provider, clock, service, _ in
            let ada = try await service.createUser(withEmail: "ada@example.com", password: "correct horse battery")
            let linked = try await ada.link(with: Self.google(provider, clock, subject: "g-ada", email: "ada@example.com")).user
            #expect(linked.uid == ada.uid)
            #expect(Set(linked.providerData.map(\.providerID)) == ["password", "google.com"])
            #expect(linked.providerData.first { $0.providerID == "google.com" }?.providerUID == "g-ada")
            try await linked.signOut()

            let byPassword = try await service.signIn(withEmail: "ada@example.com", password: "correct horse battery")
            let byGoogle = try await service.signIn(with: Self.google(provider, clock, subject: "g-ada", email: "ada@example.com"))
            #expect(byPassword.uid == ada.uid && byGoogle.user.uid == ada.uid && !byGoogle.isNewUser)
            #expect(byGoogle.user.providerID == "google.com")

            // Bob links the same Google identity: refused, with the credential to sign in with instead.
            let bob = try await service.createUser(withEmail: "bob@example.com", password: "another good one")
            let refused = await #expect(throws: AuthError.self) {
                _ = try await bob.link(with: Self.google(provider, clock, subject: "g-ada", email: "ada@example.com"))
            }
            #expect(refused?.code == .credentialAlreadyInUse)
            let credential = try #require(refused?.updatedCredential)
            #expect(try await service.signIn(with: credential).user.uid == ada.uid)
            #expect(
                try await service.signIn(withEmail: "bob@example.com", password: "another good one").providerData.map(\.providerID) == ["password"])
        }
    }

    @Test("signing in with the linked credential on an account with a TOTP factor needs it; after unlinking, Google no longer signs in")
    func linkedCredentialWithSecondFactorThenUnlink() async throws {
        try await Self.withService { provider, clock, service, _ in
            let ada = try await service.createUser(withEmail: "ada@example.com", password: "correct horse battery")
            let user = try await ada.link(with: Self.google(provider, clock, subject: "g-ada", email: "ada@example.com")).user
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: user.multiFactor.session())
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: Self.code(secret, at: clock.now)),
                displayName: "phone")
            clock.advance(by: 30)

            let required = await #expect(throws: AuthError.self) {
                _ = try await service.signIn(with: Self.google(provider, clock, subject: "g-ada", email: "ada@example.com"))
            }
            #expect(required?.code == .secondFactorRequired)
            let resolver = try #require(required?.resolver)
            let hint = try #require(resolver.hints.first)
            let resolved = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: Self.code(secret, at: clock.now)))
            #expect(resolved.user.uid == ada.uid && resolved.user.providerID == "google.com")

            let unlinked = try await resolved.user.unlink(fromProvider: "google.com")
            #expect(unlinked.providerData.map(\.providerID) == ["password"])
            // The address Google vouches for is the account's, so a sign-in with it is refused
            // rather than making a second account; either way it is not Ada's any more.
            let afterwards = await #expect(throws: AuthError.self) {
                _ = try await service.signIn(with: Self.google(provider, clock, subject: "g-ada", email: "ada@example.com"))
            }
            #expect(afterwards?.code == .accountExistsWithDifferentCredential)
            let again = await #expect(throws: AuthError.self) { _ = try await unlinked.unlink(fromProvider: "google.com") }
            #expect(again?.code == .noSuchProvider)
        }
    }

    @Test("an anonymous user links Google and keeps its uid; tokens the provider did not sign are refused")
    func anonymousUpgradeAndRefusals() async throws {
        try await Self.withService { provider, clock, service, _ in
            let guest = try await service.signInAnonymously()
            #expect(guest.isAnonymous)
            let upgraded = try await guest.link(with: Self.google(provider, clock, subject: "g-guest", email: "guest@example.com")).user
            #expect(upgraded.uid == guest.uid && !upgraded.isAnonymous && upgraded.email == "guest@example.com" && upgraded.isEmailVerified)
            #expect(
                try await service.signIn(with: Self.google(provider, clock, subject: "g-guest", email: "guest@example.com")).user.uid == guest.uid)

            let stranger = try TestIdentityProvider.SigningKey.generate(kid: provider.currentKey.kid)
            let forged = try await provider.idToken(subject: "g-guest", issuedAt: clock.now, signingKey: stranger.privateKey)
            let expired = try await provider.idToken(subject: "g-guest", issuedAt: clock.now - 7200)
            let elsewhere = try await provider.idToken(subject: "g-guest", audience: "another-app", issuedAt: clock.now)
            for token in [forged, expired, elsewhere] {
                let error = await #expect(throws: AuthError.self) {
                    _ = try await service.signIn(with: GoogleAuthProvider.credential(withIDToken: token, accessToken: nil))
                }
                #expect(error?.code == .invalidCredential)
                #expect(!(error?.message.contains(token) ?? true))
            }
            let unknown = await #expect(throws: AuthError.self) {
                _ = try await service.signIn(with: OAuthProvider.credential(providerID: "oidc.unknown", idToken: forged))
            }
            #expect(unknown?.code == .invalidProviderID)
        }
    }

    @Test("the database holds the password only as its scrypt hash, and no ID token")
    func nothingRecognizableAtRest() async throws {
        try await Self.withService { provider, clock, service, path in
            let password = "correct horse battery"
            let ada = try await service.createUser(withEmail: "ada@example.com", password: password)
            let token = try await provider.idToken(subject: "g-ada", email: "ada@example.com", issuedAt: clock.now)
            _ = try await ada.link(with: GoogleAuthProvider.credential(withIDToken: token, accessToken: nil))
            var bytes = Data()
            for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
                bytes += try Data(contentsOf: URL(fileURLWithPath: file))
            }
            #expect(bytes.range(of: Data(password.utf8)) == nil)
            #expect(bytes.range(of: Data(token.utf8)) == nil)
            #expect(bytes.range(of: Data(token.split(separator: ".")[2].utf8)) == nil)
            #expect(bytes.range(of: Data("$scrypt$ln=10,r=8,p=1$".utf8)) != nil, "the encoded hash, with its parameters")
        }
    }
}
