import OTPAuthentication
import Testing

/// The review's lockout attack: anyone who knows an address could keep its owner out for good by
/// sending a few wrong passwords each lockout period. Wrong passwords from where the owner signed
/// in before now count apart, so the attacker's lock holds only strangers.
@Suite("Lockout an attacker cannot extend for the owner")
struct OwnerLockoutTests {
    static let home = "198.51.100.1"
    static let attacker = "203.0.113.9"

    static func fixture(knownSourceLifetime: Int64 = 30 * 86_400) throws -> Fixture {
        try Fixture(
            MultiFactorConfiguration(
                passwords: PasswordSettings(hashParameters: PasswordHasherTests.cheap, knownSourceLifetime: knownSourceLifetime)))
    }

    /// The refusal's code, or `nil` for a sign-in.
    static func signIn(_ fixture: Fixture, password: String, from source: String?) async -> AuthErrorCode? {
        do {
            _ = try await fixture.service.signIn(withEmail: "ada@example.com", password: password, source: source)
            return nil
        } catch {
            return error.code
        }
    }

    static func lockOut(_ fixture: Fixture, from source: String) async {
        for _ in 0..<fixture.service.configuration.maximumConsecutiveFailures {
            _ = await signIn(fixture, password: "guess", from: source)
        }
    }

    @Test("an attacker who locks the address again each lockout never locks out the owner at a source of theirs")
    func attackerCannotExtendTheOwnersLock() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        #expect(await Self.signIn(fixture, password: "correct horse", from: Self.home) == nil, "the owner signs in at home once")

        for round in 0..<6 {
            await Self.lockOut(fixture, from: Self.attacker)
            #expect(await Self.signIn(fixture, password: "correct horse", from: Self.attacker) == .tooManyRequests, "round \(round): locked")
            #expect(
                await Self.signIn(fixture, password: "correct horse", from: "203.0.113.77") == .tooManyRequests,
                "round \(round): every stranger shares the lock")
            #expect(await Self.signIn(fixture, password: "correct horse", from: nil) == .tooManyRequests, "round \(round): as does no source")
            #expect(await Self.signIn(fixture, password: "correct horse", from: Self.home) == nil, "round \(round): the owner at home")
            fixture.clock.advance(by: fixture.service.configuration.lockoutDuration)
        }
    }

    @Test("wrong passwords at a known source lock that source alone, and a success there clears its count only")
    func knownSourceLocksOnItsOwn() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        #expect(await Self.signIn(fixture, password: "correct horse", from: Self.home) == nil)

        await Self.lockOut(fixture, from: Self.home)
        #expect(await Self.signIn(fixture, password: "correct horse", from: Self.home) == .tooManyRequests, "the owner's own typos lock home")
        #expect(await Self.signIn(fixture, password: "correct horse", from: Self.attacker) == nil, "but not the address elsewhere")
        fixture.clock.advance(by: fixture.service.configuration.lockoutDuration)
        #expect(await Self.signIn(fixture, password: "correct horse", from: Self.home) == nil, "home after its lockout")
    }

    @Test("a source is known only to the account that signed in from it, and only for its lifetime")
    func knownSourceScopeAndLifetime() async throws {
        let fixture = try Self.fixture(knownSourceLifetime: 3_600)
        _ = try await fixture.service.createUser(withEmail: "ada@example.com", password: "correct horse")
        _ = try await fixture.service.createUser(withEmail: "bob@example.com", password: "battery staple")
        _ = try await fixture.service.signIn(withEmail: "bob@example.com", password: "battery staple", source: Self.home)

        await Self.lockOut(fixture, from: Self.attacker)
        #expect(
            await Self.signIn(fixture, password: "correct horse", from: Self.home) == .tooManyRequests,
            "Bob's home is not Ada's: she never signed in from it")

        fixture.clock.advance(by: fixture.service.configuration.lockoutDuration)
        #expect(await Self.signIn(fixture, password: "correct horse", from: Self.home) == nil, "Ada at home, now known")
        fixture.clock.advance(by: 3_601)
        await Self.lockOut(fixture, from: Self.attacker)
        #expect(
            await Self.signIn(fixture, password: "correct horse", from: Self.home) == .tooManyRequests,
            "a source forgotten after its lifetime shares the strangers' lock")
    }
}
