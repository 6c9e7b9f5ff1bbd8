import OTPAuthentication
import Testing

/// A verifier that knows a fixed set of tokens: the service's linking rules without a provider.
/// The tokens of a real provider, with signatures and JWKS, are in FederatedSignInTests.
struct TokenTableVerifier: IdentityTokenVerifier {
    let providerID: String
    let tokens: [String: VerifiedIdentity]

    func verify(idToken: String, nonce: String?) async throws(IdentityTokenError) -> VerifiedIdentity {
        guard let identity = tokens[idToken] else { throw .rejected("no such token in the table") }
        return identity
    }
}

/// Linking and unlinking through the service: Firebase's `link(with:)`, `unlink(fromProvider:)`,
/// `providerData`, and `signIn(with:)` for federated credentials.
@Suite("Account linking")
struct AccountLinkingTests {
    static let google = TokenTableVerifier(
        providerID: "google.com",
        tokens: [
            "ada-google": VerifiedIdentity(subject: "g-ada", email: "Ada@Example.com", isEmailVerified: true, displayName: "Ada"),
            "bob-google": VerifiedIdentity(subject: "g-bob", email: "bob@example.com", isEmailVerified: true),
            "eve-google": VerifiedIdentity(subject: "g-eve", email: "ada@example.com", isEmailVerified: false),
            "ada-google-2": VerifiedIdentity(subject: "g-ada-2", email: "ada2@example.com", isEmailVerified: true),
        ])

    static func fixture(_ settings: PasswordSettings = PasswordSettings(hashParameters: PasswordHasherTests.cheap)) throws -> Fixture {
        try Fixture(MultiFactorConfiguration(passwords: settings), identityProviders: [google])
    }

    static func googleCredential(_ token: String) -> AuthCredential {
        GoogleAuthProvider.credential(withIDToken: token, accessToken: nil)
    }

    @Test("a password user links Google, then signs in with either as the same uid; providerData lists both")
    func linkAndSignInWithEither() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        #expect(user.providerData.map(\.providerID) == ["password"])
        let linked = try await user.link(with: Self.googleCredential("ada-google")).user
        #expect(linked.uid == user.uid)
        #expect(linked.providerData.map(\.providerID) == ["google.com", "password"])
        #expect(linked.providerData.first?.providerUID == "g-ada")
        // The token vouches for the account's address, which is now verified.
        #expect(linked.isEmailVerified)
        let viaGoogle = try await fixture.service.signIn(with: Self.googleCredential("ada-google"))
        #expect(viaGoogle.user.uid == user.uid && !viaGoogle.isNewUser && viaGoogle.user.providerID == "google.com")
        let viaPassword = try await fixture.service.signIn(
            with: EmailAuthProvider.credential(withEmail: "ada@example.com", password: "correct horse"))
        #expect(viaPassword.user.uid == user.uid)
        // The session the link replaced has ended.
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
    }

    @Test("an identity already linked elsewhere: credentialAlreadyInUse, with the credential to sign in with")
    func credentialAlreadyInUse() async throws {
        let fixture = try Self.fixture()
        let owner = try await fixture.service.signIn(with: Self.googleCredential("bob-google"))
        #expect(owner.isNewUser && owner.user.email == "bob@example.com" && owner.user.isEmailVerified)
        let other = try await fixture.service.createUser(withEmail: "carol@example.com", password: "correct horse")
        let error = await #expect(throws: AuthError.self) { _ = try await other.link(with: Self.googleCredential("bob-google")) }
        #expect(error?.code == .credentialAlreadyInUse)
        let credential = try #require(error?.updatedCredential)
        #expect(try await fixture.service.signIn(with: credential).user.uid == owner.user.uid)
        // Linking it again to its own account is refused the same way, as Firebase does.
        #expect(await authErrorCode { _ = try await owner.user.link(with: Self.googleCredential("bob-google")) } == .credentialAlreadyInUse)
        #expect(await authErrorCode { _ = try await owner.user.link(with: Self.googleCredential("ada-google-2")) } == .providerAlreadyLinked)
    }

    @Test("an anonymous user links a password and keeps its uid, then may enroll a second factor")
    func anonymousUpgrade() async throws {
        let fixture = try Self.fixture()
        let anonymous = try await fixture.service.signInAnonymously()
        #expect(anonymous.isAnonymous && anonymous.providerData.isEmpty)
        let upgraded = try await anonymous.link(with: EmailAuthProvider.credential(withEmail: "dan@example.com", password: "correct horse")).user
        #expect(upgraded.uid == anonymous.uid && !upgraded.isAnonymous && upgraded.email == "dan@example.com")
        #expect(upgraded.providerData == [ProviderIdentity(providerID: "password", providerUID: "dan@example.com", email: "dan@example.com")])
        #expect(try await fixture.service.signIn(withEmail: "dan@example.com", password: "correct horse").uid == anonymous.uid)
        // A second password cannot be linked, and an address another account has is refused.
        #expect(
            await authErrorCode { _ = try await upgraded.link(with: EmailAuthProvider.credential(withEmail: "x@example.com", password: "123456")) }
                == .providerAlreadyLinked)
        _ = try await fixture.service.createUser(withEmail: "erin@example.com", password: "correct horse")
        let second = try await fixture.service.signInAnonymously()
        let taken = await #expect(throws: AuthError.self) {
            _ = try await second.link(with: EmailAuthProvider.credential(withEmail: "ERIN@example.com", password: "correct horse"))
        }
        #expect(taken?.code == .emailAlreadyInUse && taken?.email == "erin@example.com")
        #expect(
            await authErrorCode { _ = try await second.link(with: EmailAuthProvider.credential(withEmail: "f@example.com", password: "123")) }
                == .weakPassword)
    }

    @Test("unlink removes one provider: it no longer signs in; unlinking an absent one is noSuchProvider")
    func unlink() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        let linked = try await user.link(with: Self.googleCredential("ada-google")).user
        let unlinked = try await linked.unlink(fromProvider: "google.com")
        #expect(unlinked.providerData.map(\.providerID) == ["password"])
        // Its verified address is the account's, so the identity does not quietly re-link or make a second account.
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.service.signIn(with: Self.googleCredential("ada-google")) }
        #expect(error?.code == .accountExistsWithDifferentCredential && error?.email == "ada@example.com" && error?.updatedCredential != nil)
        #expect(await authErrorCode { _ = try await unlinked.unlink(fromProvider: "google.com") } == .noSuchProvider)
        // Unlinking the password drops it and the address with it.
        let withoutPassword = try await unlinked.unlink(fromProvider: "password")
        #expect(withoutPassword.providerData.isEmpty && withoutPassword.email == nil)
        #expect(
            await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse") }
                == .invalidCredential)
    }

    @Test("an unverified address from a provider claims nothing: a new account without it, the address's owner untouched")
    func unverifiedAddress() async throws {
        let fixture = try Self.fixture()
        let ada = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        let eve = try await fixture.service.signIn(with: Self.googleCredential("eve-google"))
        #expect(eve.isNewUser && eve.user.uid != ada.uid && eve.user.email == nil)
        #expect(eve.user.providerData.first?.email == "ada@example.com")
    }

    @Test("refused credentials: a token the verifier refuses, a provider without a verifier, a disabled account")
    func refusedCredentials() async throws {
        let fixture = try Self.fixture()
        let refused = await #expect(throws: AuthError.self) { _ = try await fixture.service.signIn(with: Self.googleCredential("forged")) }
        #expect(refused?.code == .invalidCredential && refused?.message.contains("forged") == false)
        let unknown = OAuthProvider.credential(providerID: "oidc.unknown", idToken: "ada-google")
        #expect(await authErrorCode { _ = try await fixture.service.signIn(with: unknown) } == .invalidProviderID)
        let bob = try await fixture.service.signIn(with: Self.googleCredential("bob-google"))
        #expect(try await fixture.store.setAccountDisabled(id: bob.user.uid, disabled: true))
        #expect(await authErrorCode { _ = try await fixture.service.signIn(with: Self.googleCredential("bob-google")) } == .userDisabled)
        // A credential prints its provider, never its secret.
        let credential = EmailAuthProvider.credential(withEmail: "ada@example.com", password: "correct horse")
        #expect("\(credential)" == "AuthCredential(password)")
        var dumped = ""
        dump(credential, to: &dumped)
        #expect(!dumped.contains("correct horse"))
    }

    @Test("a federated sign-in of an account with a TOTP factor needs it, and the resolver finishes the sign-in")
    func federatedSecondFactor() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.signIn(with: Self.googleCredential("bob-google")).user
        let (secret, info) = try await fixture.enroll(user)
        fixture.nextStep()
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.service.signIn(with: Self.googleCredential("bob-google")) }
        #expect(error?.code == .secondFactorRequired)
        let resolver = try #require(error?.resolver)
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))
        #expect(result.user.uid == user.uid && result.user.providerData.map(\.providerID) == ["google.com"])
    }

    @Test("concurrent first sign-ins of one new identity make one account; concurrent links of one identity: exactly one succeeds")
    func concurrentIdentity() async throws {
        let fixture = try Self.fixture()
        let uids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask { try await fixture.service.signIn(with: Self.googleCredential("ada-google-2")).user.uid }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(uids.count == 1)

        var users: [User] = []
        for index in 0..<10 {
            users.append(try await fixture.service.createUser(withEmail: "user\(index)@example.com", password: "correct horse"))
        }
        let outcomes = await withTaskGroup(of: Result<String, AuthError>.self) { group in
            for user in users {
                group.addTask {
                    do throws(AuthError) {
                        return .success(try await user.link(with: Self.googleCredential("bob-google")).user.uid)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: [Result<String, AuthError>]()) { $0.append($1) }
        }
        let linked = outcomes.compactMap { try? $0.get() }
        #expect(linked.count == 1)
        #expect(
            outcomes.filter { if case .failure(let error) = $0 { error.code == .credentialAlreadyInUse } else { false } }.count == users.count - 1)
        // The one that won is the one that signs in with the identity now.
        #expect(try await fixture.service.signIn(with: Self.googleCredential("bob-google")).user.uid == linked.first)
    }

    @Test("failed password sign-ins from one source lock that source out of every account until the window ends")
    func perSourceThrottling() async throws {
        let fixture = try Self.fixture(PasswordSettings(hashParameters: PasswordHasherTests.cheap, maximumFailuresPerSource: 3, sourceWindow: 600))
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        for index in 0...3 {
            #expect(
                await authErrorCode {
                    _ = try await fixture.service.signIn(withEmail: "nobody\(index)@example.com", password: "guess", source: "192.0.2.7")
                } == .invalidCredential)
        }
        #expect(
            await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse", source: "192.0.2.7") }
                == .tooManyRequests)
        // Another source, and no source, are not affected.
        _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse", source: "198.51.100.1")
        _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
        fixture.clock.advance(by: 600)
        _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse", source: "192.0.2.7")
    }
}
