import OTPAuthentication
import Testing

/// Someone creates a password account with another person's address, which they never prove: an
/// outside review found that the owner could then neither sign in with their verified Google
/// identity nor sign up. As Firebase does, the owner's verified identity takes the account over.
@Suite("Account squatting")
struct AccountSquattingTests {
    static func googleCredential(_ token: String) -> AuthCredential { AccountLinkingTests.googleCredential(token) }

    @Test("the owner's verified identity replaces an unverified password: the password and its sessions end, the address is verified")
    func ownerTakesTheAccount() async throws {
        let fixture = try AccountLinkingTests.fixture()
        let squatter = try await fixture.service.createUser(withEmail: "ada@example.com", password: "squatter's password")
        let elsewhere = try await fixture.service.signIn(withEmail: "ada@example.com", password: "squatter's password")
        fixture.clock.advance(by: 1)

        let owner = try await fixture.service.signIn(with: Self.googleCredential("ada-google"))
        #expect(owner.user.uid == squatter.uid && !owner.isNewUser && owner.user.providerID == "google.com")
        #expect(owner.user.isEmailVerified && owner.user.email == "ada@example.com")
        #expect(owner.user.providerData.map(\.providerID) == ["google.com"], "the password is gone")
        for session in [squatter, elsewhere] {
            #expect(await authErrorCode { _ = try await session.multiFactor.session() } == .userTokenExpired)
        }
        #expect(
            await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "squatter's password") }
                == .invalidCredential)
        let account = try #require(try await fixture.service.administration.accountDetails(id: squatter.uid)?.account)
        #expect(account.passwordHash == nil && account.isEmailVerified && account.tokensValidAfter == fixture.clock.now())
        // And the owner keeps signing in the same way.
        #expect(try await fixture.service.signIn(with: Self.googleCredential("ada-google")).user.uid == squatter.uid)
    }

    @Test("an account the address's owner may have made is never taken: a verified address, another identity, a second factor")
    func ownAccountsAreKept() async throws {
        let fixture = try AccountLinkingTests.fixture()
        // A verified address: the account is its owner's.
        let verified = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        _ = try await fixture.service.administration.updateAccount(id: verified.uid, isEmailVerified: true)
        let error = await #expect(throws: AuthError.self) { _ = try await fixture.service.signIn(with: Self.googleCredential("ada-google")) }
        #expect(error?.code == .accountExistsWithDifferentCredential)
        #expect(try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse").uid == verified.uid)

        // Another identity linked: a way in that is not the password.
        let linked = try await fixture.service.createUser(withEmail: "ada2@example.com", password: "correct horse")
        _ = try await linked.link(with: Self.googleCredential("bob-google"))
        _ = try await fixture.service.administration.updateAccount(id: linked.uid, email: "ada2@example.com", isEmailVerified: false)
        #expect(
            await authErrorCode { _ = try await fixture.service.signIn(with: Self.googleCredential("ada-google-2")) }
                == .accountExistsWithDifferentCredential)
        #expect(try await fixture.service.signIn(withEmail: "ada2@example.com", password: "correct horse").uid == linked.uid)
    }
}
