import OTPAuthentication
import Testing

@Suite("Recovery codes")
struct RecoveryCodeTests {
    static var format: Regex<Substring> { #/[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}/# }

    /// A user with a TOTP factor and a fresh set of recovery codes, and a sign-in waiting for its
    /// second factor.
    static func enrolledWithCodes(_ fixture: Fixture) async throws -> (codes: [String], resolver: MultiFactorResolver) {
        let user = try await fixture.signIn()
        try await fixture.enroll(user)
        let codes = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await user.multiFactor.session())
        return (codes, try await fixture.resolver())
    }

    @Test("ten distinct codes, each signs in once, typed in any case with spaces; the owner sees how many remain")
    func signInOnce() async throws {
        let fixture = try Fixture()
        let (codes, resolver) = try await Self.enrolledWithCodes(fixture)
        #expect(codes.count == 10)
        #expect(Set(codes).count == 10)
        for code in codes { #expect(code.wholeMatch(of: Self.format) != nil, "\(code)") }

        let typed = " " + codes[3].uppercased().replacingOccurrences(of: "-", with: " ") + " "
        let result = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: typed))
        #expect(result.user.signInSecondFactor == RecoveryCodeMultiFactorID)
        #expect(result.secondFactor?.factorID == RecoveryCodeMultiFactorID)
        #expect(try await result.user.multiFactor.recoveryCodeCount() == 9)
        let restored = try await fixture.service.user(forSessionID: result.user.sessionID, identity: Fixture.identity())
        #expect(restored.signInSecondFactor == RecoveryCodeMultiFactorID)

        let again = try await fixture.resolver()
        #expect(
            await authErrorCode { _ = try await again.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[3])) }
                == .invalidVerificationCode)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[4])) }
                == .invalidMultiFactorSession, "the first sign-in's credential is spent")
    }

    @Test("generating a new set voids the old one")
    func regenerate() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        try await fixture.enroll(user)
        let session = try await user.multiFactor.session()
        let old = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: session)
        let new = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: session)
        #expect(Set(old).isDisjoint(with: new))
        #expect(try await user.multiFactor.recoveryCodeCount() == 10)
        let resolver = try await fixture.resolver()
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: old[0])) }
                == .invalidVerificationCode)
        _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: new[0]))
    }

    @Test("wrong and malformed codes count toward the lock-out; a locked user's right code is refused too")
    func throttled() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(maximumConsecutiveFailures: 3))
        let (codes, resolver) = try await Self.enrolledWithCodes(fixture)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: "not a code")) }
                == .invalidVerificationCode)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: "00000-00000")) }
                == .invalidVerificationCode)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: "00000-00001")) }
                == .tooManyRequests)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[0])) }
                == .tooManyRequests)
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: "")) }
                == .missingVerificationCode)
        fixture.clock.advance(by: MultiFactorConfiguration().lockoutDuration)
        _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[0]))
    }

    @Test("generating needs a recent sign-in and the user's own session")
    func generationRules() async throws {
        let fixture = try Fixture()
        let user = try await fixture.signIn()
        try await fixture.enroll(user)
        let resolver = try await fixture.resolver()
        #expect(
            await authErrorCode { _ = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: resolver.session) } == .invalidMultiFactorSession
        )
        let session = try await user.multiFactor.session()
        fixture.clock.advance(by: MultiFactorConfiguration().recentLoginWindow + 1)
        #expect(await authErrorCode { _ = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: session) } == .requiresRecentLogin)
    }

    @Test("50 concurrent sign-ins with one code: exactly one succeeds")
    func concurrentUse() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(maximumConsecutiveFailures: 1_000))
        let (codes, _) = try await Self.enrolledWithCodes(fixture)
        var resolvers: [MultiFactorResolver] = []
        for _ in 0..<50 { resolvers.append(try await fixture.resolver()) }
        let codes50 = await withTaskGroup(of: AuthErrorCode?.self) { group in
            for resolver in resolvers {
                group.addTask {
                    do throws(AuthError) {
                        _ = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: codes[0]))
                        return nil
                    } catch {
                        return error.code
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(codes50.filter { $0 == nil }.count == 1)
        #expect(codes50.filter { $0 == .invalidVerificationCode }.count == 49)
    }
}
