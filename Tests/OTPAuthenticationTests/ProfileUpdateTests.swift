import OTPAuthentication
import Testing

/// A signed-in user's own changes (`User.update(email:password:displayName:photoURL:)`), as
/// `accounts:update` with an ID token makes them.
@Suite("Profile updates")
struct ProfileUpdateTests {
    static func fixture() throws -> Fixture {
        try Fixture(MultiFactorConfiguration(passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap)))
    }

    @Test("a new password ends every session, the user goes on in a new one, and only the new password signs in")
    func passwordChangeEndsSessions() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        let elsewhere = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse")
        fixture.clock.advance(by: 5)
        let updated = try await user.update(password: "battery staple")
        #expect(updated.uid == user.uid && updated.sessionID != user.sessionID && updated.providerID == "password")
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
        #expect(await authErrorCode { _ = try await elsewhere.multiFactor.session() } == .userTokenExpired)
        _ = try await updated.multiFactor.session()
        #expect(await authErrorCode { _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: "correct horse") } != nil)
        #expect(try await fixture.service.signIn(withEmail: "ada@example.com", password: "battery staple").uid == user.uid)
        let account = try #require(try await fixture.service.administration.accountDetails(id: user.uid)?.account)
        #expect(account.tokensValidAfter == Fixture.start + 5)
    }

    @Test("a new address is unverified and ends the sessions; a name and photo keep the session")
    func addressAndProfile() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "bob@example.com", password: "correct horse")
        let named = try await user.update(displayName: .set("Bob"), photoURL: .set("https://example.com/bob.png"))
        #expect(named.sessionID == user.sessionID)
        _ = try await user.multiFactor.session()
        var account = try #require(try await fixture.service.administration.accountDetails(id: user.uid)?.account)
        #expect(account.displayName == "Bob" && account.photoURL == "https://example.com/bob.png" && account.tokensValidAfter == nil)
        // The same address again is no change.
        #expect(try await named.update(email: "BOB@example.com").sessionID == user.sessionID)

        let moved = try await named.update(email: "Robert@Example.com", displayName: .remove)
        #expect(moved.sessionID != user.sessionID && moved.email == "robert@example.com" && !moved.isEmailVerified)
        #expect(await authErrorCode { _ = try await named.multiFactor.session() } == .userTokenExpired)
        account = try #require(try await fixture.service.administration.accountDetails(id: user.uid)?.account)
        #expect(account.email == "robert@example.com" && account.displayName == nil)
        #expect(try await fixture.service.signIn(withEmail: "robert@example.com", password: "correct horse").uid == user.uid)
    }

    @Test("refusals write nothing: a weak password, a malformed or taken address, a password without an address")
    func refusals() async throws {
        let fixture = try Self.fixture()
        let user = try await fixture.service.createUser(withEmail: "carol@example.com", password: "correct horse")
        _ = try await fixture.service.createUser(withEmail: "dan@example.com", password: "correct horse")
        #expect(await authErrorCode { _ = try await user.update(password: "short", displayName: .set("C")) } == .weakPassword)
        #expect(await authErrorCode { _ = try await user.update(email: "not an address") } == .invalidEmail)
        #expect(await authErrorCode { _ = try await user.update(email: "dan@example.com", displayName: .set("C")) } == .emailAlreadyInUse)
        let account = try #require(try await fixture.service.administration.accountDetails(id: user.uid)?.account)
        #expect(account.email == "carol@example.com" && account.displayName == nil && account.tokensValidAfter == nil)
        _ = try await user.multiFactor.session()

        let anonymous = try await fixture.service.signInAnonymously()
        #expect(await authErrorCode { _ = try await anonymous.update(password: "correct horse") } == .operationNotAllowed)
    }
}
