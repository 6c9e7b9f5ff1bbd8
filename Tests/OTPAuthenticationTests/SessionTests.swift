import OTPAuthentication
import Testing

@Suite("Sessions")
struct SessionTests {
    @Test("a session is restored by id, with its second factor and the session's own first-factor provider")
    func restore() async throws {
        let fixture = try Fixture()
        let (secret, info) = try await fixture.enroll(try await fixture.signIn())
        fixture.nextStep()
        let result = try await fixture.resolver().resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))

        let restored = try await fixture.service.user(forSessionID: result.user.sessionID, identity: Fixture.identity(provider: .password))
        #expect(restored.secondFactorIdentifier == info.uid)
        #expect(restored.signInSecondFactor == "totp")
        #expect(restored.multiFactor.enrolledFactors == [info])
        _ = try await restored.multiFactor.session()

        // The provider comes from the session: claiming another one cannot unlock enrollment.
        let anonymous = try await fixture.signIn(Fixture.identity("carol", provider: .anonymous))
        let claimed = try await fixture.service.user(forSessionID: anonymous.sessionID, identity: Fixture.identity("carol", provider: .password))
        #expect(claimed.providerID == "anonymous")
        let session = try await claimed.multiFactor.session()
        #expect(await authErrorCode { _ = try await TOTPMultiFactorGenerator.generateSecret(with: session) } == .unsupportedFirstFactor)
    }

    @Test("restoring fails for another user's, a revoked or an unknown session")
    func restoreFailures() async throws {
        let fixture = try Fixture()
        let first = try await fixture.signIn()
        let second = try await fixture.signIn()
        #expect(
            await authErrorCode { _ = try await fixture.service.user(forSessionID: first.sessionID, identity: Fixture.identity("bob")) }
                == .invalidUserToken)
        try await fixture.enroll(first)
        #expect(
            await authErrorCode { _ = try await fixture.service.user(forSessionID: second.sessionID, identity: Fixture.identity()) }
                == .userTokenExpired)
        #expect(
            await authErrorCode { _ = try await fixture.service.user(forSessionID: "unknown", identity: Fixture.identity()) } == .userTokenExpired)
    }

    @Test("signing out ends the session")
    func signOut() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        try await user.signOut()
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
        #expect(
            await authErrorCode { _ = try await fixture.service.user(forSessionID: user.sessionID, identity: Fixture.identity()) }
                == .userTokenExpired)
    }

    @Test("a session unused for the idle lifetime ends; each use moves its end on, to the minute")
    func idleLifetime() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(sessionIdleLifetime: 3_600, sessionAbsoluteLifetime: 86_400))
        let user = try await fixture.signIn()
        let id = user.sessionID
        #expect(fixture.store.session(id: id)?.expiresAt == Fixture.start + 3_600)

        fixture.clock.advance(by: 30)
        _ = try await user.multiFactor.session()
        #expect(fixture.store.session(id: id)?.lastUsedAt == Fixture.start, "a use within a minute of the last is not written")
        fixture.clock.advance(by: 3_000)
        _ = try await fixture.service.user(forSessionID: id, identity: Fixture.identity())
        #expect(fixture.store.session(id: id)?.lastUsedAt == Fixture.start + 3_030)
        #expect(fixture.store.session(id: id)?.expiresAt == Fixture.start + 3_030 + 3_600)

        fixture.clock.advance(by: 3_600)
        _ = try await user.multiFactor.session()
        fixture.clock.advance(by: 3_601)
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
        #expect(fixture.store.session(id: id) == nil, "an expired session is deleted when it is next used")
    }

    @Test("a session used more often than its idle lifetime stays, even when that lifetime is under a minute")
    func shortIdleLifetime() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(sessionIdleLifetime: 40))
        let user = try await fixture.signIn()
        for _ in 0..<6 {
            fixture.clock.advance(by: 25)
            _ = try await user.multiFactor.session()
        }
        fixture.clock.advance(by: 41)
        #expect(await authErrorCode { _ = try await user.multiFactor.session() } == .userTokenExpired)
    }

    @Test("a session ends at its absolute lifetime however much it is used")
    func absoluteLifetime() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(sessionIdleLifetime: 3_600, sessionAbsoluteLifetime: 10_000))
        let user = try await fixture.signIn()
        for _ in 0..<3 {
            fixture.clock.advance(by: 3_000)
            _ = try await user.multiFactor.session()
        }
        #expect(fixture.store.session(id: user.sessionID)?.expiresAt == Fixture.start + 10_000, "the idle end is capped by the absolute one")
        fixture.clock.advance(by: 1_000)
        _ = try await fixture.service.user(forSessionID: user.sessionID, identity: Fixture.identity())
        fixture.clock.advance(by: 1)
        let error = await #expect(throws: AuthError.self) {
            _ = try await fixture.service.user(forSessionID: user.sessionID, identity: Fixture.identity())
        }
        #expect(error?.code == .userTokenExpired)
        #expect(error?.message == "this session expired (sessions end after 3600 seconds unused or 10000 seconds after sign-in): sign in again")
    }

    @Test("purging removes expired sessions and keeps live ones")
    func purge() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(sessionIdleLifetime: 3_600))
        let early = try await fixture.signIn()
        fixture.clock.advance(by: 1_800)
        let late = try await fixture.signIn()
        fixture.clock.advance(by: 1_801)
        try await fixture.service.purgeExpired()
        #expect(fixture.store.session(id: early.sessionID) == nil)
        #expect(fixture.store.session(id: late.sessionID) != nil)
        #expect(fixture.store.removeSessions(userID: "alice", except: nil) == 1)
    }

    @Test("a sign-in past the per-user session limit ends the user's oldest session, with or without a second factor")
    func sessionLimit() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(maximumSessionsPerUser: 3))
        var users: [User] = []
        for _ in 0..<3 { users.append(try await fixture.signIn()) }
        let bob = try await fixture.signIn(Fixture.identity("bob"))
        users.append(try await fixture.signIn())
        #expect(await authErrorCode { _ = try await users[0].multiFactor.session() } == .userTokenExpired)
        for user in users[1...] { _ = try await user.multiFactor.session() }
        _ = try await bob.multiFactor.session()

        let (secret, info) = try await fixture.enroll(users[3])
        fixture.nextStep()
        var kept: [User] = [users[3]]
        for _ in 0..<3 {
            fixture.nextStep()
            let result = try await fixture.resolver().resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret)))
            kept.append(result.user)
        }
        #expect(await authErrorCode { _ = try await kept[0].multiFactor.session() } == .userTokenExpired, "the oldest of four sessions")
        for user in kept[1...] { _ = try await user.multiFactor.session() }
        #expect(fixture.store.removeSessions(userID: "alice", except: nil) == 3)
    }

    @Test("session settings that cannot work are refused")
    func invalidSettings() {
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "sessionIdleLifetime", seconds: 0)) {
            try MultiFactorConfiguration(sessionIdleLifetime: 0).validate()
        }
        #expect(throws: MultiFactorConfigurationError.nonPositiveDuration(name: "sessionAbsoluteLifetime", seconds: -1)) {
            try MultiFactorConfiguration(sessionAbsoluteLifetime: -1).validate()
        }
        #expect(throws: MultiFactorConfigurationError.invalidSessionLimit(0)) {
            try MultiFactorConfiguration(maximumSessionsPerUser: 0).validate()
        }
    }
}
