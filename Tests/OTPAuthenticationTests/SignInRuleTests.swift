import OTPAuthentication
import Testing

@Suite("Sign-in rules")
struct SignInRuleTests {
    /// A user with one enrolled factor, signed out, with the clock on the next step.
    func enrolled(_ configuration: MultiFactorConfiguration = MultiFactorConfiguration()) async throws -> (Fixture, TOTPSecret, MultiFactorInfo) {
        let fixture = try Fixture(configuration)
        let (secret, info) = try await fixture.enroll(try await fixture.signIn())
        fixture.nextStep()
        return (fixture, secret, info)
    }

    func assertion(_ fixture: Fixture, _ secret: TOTPSecret, _ info: MultiFactorInfo, at time: Int64? = nil) throws -> TOTPMultiFactorAssertion {
        TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret, at: time))
    }

    @Test("a code outside the adjacent intervals is refused; at the edges it is accepted")
    func window() async throws {
        let (fixture, secret, info) = try await enrolled()
        let now = fixture.clock.now()
        let resolver = try await fixture.resolver()
        for offset: Int64 in [6, 7, -6, -10] {
            #expect(
                await authErrorCode { _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info, at: now + offset * 30)) }
                    == .invalidVerificationCode, "offset \(offset)")
        }
        fixture.clock.advance(by: 30 * 20)
        let late = fixture.clock.now()
        _ = try await fixture.resolver().resolveSignIn(with: try assertion(fixture, secret, info, at: late - 5 * 30))
        _ = try await fixture.resolver().resolveSignIn(with: try assertion(fixture, secret, info, at: late + 5 * 30))
    }

    @Test("the same code, or any earlier step's, is never accepted twice")
    func noReplay() async throws {
        let (fixture, secret, info) = try await enrolled()
        let now = fixture.clock.now()
        _ = try await fixture.resolver().resolveSignIn(with: try assertion(fixture, secret, info, at: now))
        let again = try await fixture.resolver()
        #expect(
            await authErrorCode { _ = try await again.resolveSignIn(with: try assertion(fixture, secret, info, at: now)) } == .invalidVerificationCode
        )
        #expect(
            await authErrorCode { _ = try await again.resolveSignIn(with: try assertion(fixture, secret, info, at: now - 30)) }
                == .invalidVerificationCode)
        // A later step's code still works, once.
        _ = try await again.resolveSignIn(with: try assertion(fixture, secret, info, at: now + 30))
        #expect(
            await authErrorCode { _ = try await fixture.resolver().resolveSignIn(with: try assertion(fixture, secret, info, at: now + 30)) }
                == .invalidVerificationCode)
    }

    @Test("a second service on the same store (another process) refuses a code the first accepted")
    func noReplayAcrossServices() async throws {
        let (fixture, secret, info) = try await enrolled()
        let other = try MultiFactorService(store: fixture.store, clock: fixture.clock)
        let code = try fixture.code(secret)
        _ = try await fixture.resolver().resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: code))
        let error = await #expect(throws: AuthError.self) { _ = try await other.signIn(Fixture.identity()) }
        let resolver = try #require(error?.resolver)
        #expect(
            await authErrorCode {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: code))
            } == .invalidVerificationCode)
    }

    @Test("a pending sign-in credential expires (sessionExpired)")
    func credentialExpires() async throws {
        let (fixture, secret, info) = try await enrolled(MultiFactorConfiguration(pendingSignInLifetime: 300))
        let resolver = try await fixture.resolver()
        fixture.clock.advance(by: 301)
        #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info)) } == .sessionExpired)
        // The code was not spent: a fresh sign-in accepts it.
        _ = try await fixture.resolver().resolveSignIn(with: try assertion(fixture, secret, info))
    }

    @Test("a pending sign-in credential cannot be reused after success")
    func credentialSingleUse() async throws {
        let (fixture, secret, info) = try await enrolled()
        let resolver = try await fixture.resolver()
        _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info))
        fixture.nextStep()
        #expect(
            await authErrorCode { _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info)) } == .invalidMultiFactorSession)
    }

    @Test("a wrong code does not spend the credential")
    func wrongCodeKeepsCredential() async throws {
        let (fixture, secret, info) = try await enrolled()
        let resolver = try await fixture.resolver()
        let wrong = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.wrongCode(secret))
        #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: wrong) } == .invalidVerificationCode)
        _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info))
    }

    @Test("after K consecutive failures the factor is locked for the lockout, for every pending credential")
    func throttled() async throws {
        let (fixture, secret, info) = try await enrolled(MultiFactorConfiguration(maximumConsecutiveFailures: 4, lockoutDuration: 90))
        let resolver = try await fixture.resolver()
        let wrong = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.wrongCode(secret))
        for _ in 0..<3 {
            #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: wrong) } == .invalidVerificationCode)
        }
        #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: wrong) } == .tooManyRequests)
        let error = await #expect(throws: AuthError.self) { _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info)) }
        #expect(error?.code == .tooManyRequests)
        #expect(error?.message == "too many wrong codes in a row: try again in 90 seconds")
        // A new pending credential is throttled too: the lock is on the factor.
        let other = try await fixture.resolver()
        #expect(await authErrorCode { _ = try await other.resolveSignIn(with: try assertion(fixture, secret, info)) } == .tooManyRequests)

        fixture.clock.advance(by: 60)
        #expect(await authErrorCode { _ = try await other.resolveSignIn(with: try assertion(fixture, secret, info)) } == .tooManyRequests)
        fixture.clock.advance(by: 30)
        _ = try await other.resolveSignIn(with: try assertion(fixture, secret, info))
    }

    @Test("failures must be consecutive: a success starts the count again")
    func successResetsFailures() async throws {
        let (fixture, secret, info) = try await enrolled(MultiFactorConfiguration(maximumConsecutiveFailures: 3))
        for _ in 0..<3 {
            let resolver = try await fixture.resolver()
            let wrong = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.wrongCode(secret))
            for _ in 0..<2 {
                #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: wrong) } == .invalidVerificationCode)
            }
            _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info))
            fixture.nextStep()
        }
        #expect(fixture.store.failureCounter(key: info.uid) == .zero)
    }

    @Test("an enrollment assertion cannot complete a sign-in")
    func enrollmentAssertionCannotSignIn() async throws {
        let (fixture, _, _) = try await enrolled()
        let user = try await fixture.signIn(Fixture.identity("bob", email: "bob@example.com"))
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let resolver = try await fixture.resolver()
        let enrollment = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret))
        #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: enrollment) } == .missingMultiFactorInfo)
        // And the enrollment assertion still enrolls afterwards.
        try await user.multiFactor.enroll(with: enrollment, displayName: nil)
    }

    @Test("unknown or another user's enrollment ids are not found; empty codes are missing")
    func enrollmentIDs() async throws {
        let (fixture, secret, info) = try await enrolled()
        let bobFixtureUser = try await fixture.signIn(Fixture.identity("bob", email: "bob@example.com"))
        let (bobSecret, bobInfo) = try await fixture.enroll(bobFixtureUser)
        let resolver = try await fixture.resolver()
        #expect(
            await authErrorCode {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: "nope", oneTimePassword: "123456"))
            } == .multiFactorInfoNotFound)
        #expect(
            await authErrorCode {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(
                        withEnrollmentID: bobInfo.uid, oneTimePassword: try fixture.code(bobSecret, at: fixture.clock.now() + 30)))
            } == .multiFactorInfoNotFound)
        #expect(
            await authErrorCode {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: ""))
            } == .missingVerificationCode)
        _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info))
    }

    @Test("a factor unenrolled between the first and second step is not found")
    func unenrolledMeanwhile() async throws {
        let (fixture, secret, info) = try await enrolled()
        let resolver = try await fixture.resolver()
        // Another process removes the factor directly in the shared store.
        _ = fixture.store.removeFactor(id: info.uid, userID: "alice")
        #expect(await authErrorCode { _ = try await resolver.resolveSignIn(with: try assertion(fixture, secret, info)) } == .multiFactorInfoNotFound)
    }

    @Test("a factor enrolled between the first and second step can complete the sign-in")
    func enrolledMeanwhile() async throws {
        let (fixture, secret, info) = try await enrolled()
        let pending = try await fixture.resolver()
        let user = try await fixture.resolver().resolveSignIn(with: try assertion(fixture, secret, info)).user
        let (newSecret, newInfo) = try await fixture.enroll(user, displayName: "Second phone")
        #expect(!pending.hints.contains(newInfo), "the new factor is not among the earlier resolver's hints")
        fixture.nextStep()
        let result = try await pending.resolveSignIn(with: try assertion(fixture, newSecret, newInfo))
        #expect(result.secondFactor?.uid == newInfo.uid)
        #expect(result.user.secondFactorIdentifier == newInfo.uid)
    }
}
