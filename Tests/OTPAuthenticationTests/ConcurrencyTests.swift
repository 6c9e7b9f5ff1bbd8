import OTPAuthentication
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    enum Outcome: Sendable, Equatable {
        case success
        case failure(AuthErrorCode)
    }

    @Test("100 concurrent resolveSignIn calls with the same valid code: exactly one succeeds")
    func sameResolverSameCode() async throws {
        let fixture = try Fixture()
        let (secret, info) = try await fixture.enroll(try await fixture.signIn())
        fixture.nextStep()
        let resolver = try await fixture.resolver()
        let assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: try fixture.code(secret))
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do throws(AuthError) {
                        _ = try await resolver.resolveSignIn(with: assertion)
                        return .success
                    } catch {
                        return .failure(error.code)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .success }.count == 1)
        let failureCodes: Set<AuthErrorCode> = Set(
            outcomes.compactMap { outcome -> AuthErrorCode? in if case .failure(let code) = outcome { code } else { nil } })
        #expect(failureCodes.isSubset(of: [AuthErrorCode.invalidVerificationCode, .invalidMultiFactorSession, .tooManyRequests]), "\(failureCodes)")
    }

    @Test("100 concurrent sign-ins, each with its own pending credential, using one code: exactly one succeeds")
    func separateResolversSameCode() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(maximumConsecutiveFailures: 1_000))
        let (secret, info) = try await fixture.enroll(try await fixture.signIn())
        fixture.nextStep()
        var resolvers: [MultiFactorResolver] = []
        for _ in 0..<100 { resolvers.append(try await fixture.resolver()) }
        let code = try fixture.code(secret)
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for resolver in resolvers {
                group.addTask {
                    do throws(AuthError) {
                        _ = try await resolver.resolveSignIn(
                            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: code))
                        return .success
                    } catch {
                        return .failure(error.code)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .success }.count == 1)
        #expect(outcomes.filter { $0 == .failure(.invalidVerificationCode) }.count == 99)
    }

    @Test("50 concurrent enroll calls with the same assertion: exactly one factor is enrolled")
    func concurrentEnroll() async throws {
        let fixture = try Fixture(MultiFactorConfiguration(maximumConsecutiveFailures: 1_000))
        let user = try await fixture.signIn()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret))
        let outcomes = await withTaskGroup(of: Outcome.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do throws(AuthError) {
                        try await user.multiFactor.enroll(with: assertion, displayName: nil)
                        return .success
                    } catch {
                        return .failure(error.code)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .success }.count == 1)
        // Whether a loser read the pending enrollment before or after the winner consumed it, it
        // finds no enrollment to finalize.
        #expect(outcomes.filter { $0 == .failure(.invalidVerificationID) }.count == 49, "\(outcomes)")
        #expect(fixture.store.factors(userID: "alice").count == 1)
    }

    @Test("enrollments and unenrollments racing on one signed-in user all show in its enrolledFactors")
    func concurrentChangesOnOneUser() async throws {
        let fixture = try Fixture()
        // Many rounds, because a lost update needs two tasks to interleave between a read and a write.
        for round in 0..<300 {
            let user = try await fixture.signIn(Fixture.identity("user-\(round)"))
            var assertions: [any MultiFactorAssertion] = []
            for _ in 0..<MultiFactorConfiguration.maximumFactorCount {
                let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
                assertions.append(TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try fixture.code(secret)))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for assertion in assertions {
                    group.addTask { try await user.multiFactor.enroll(with: assertion, displayName: nil) }
                }
                try await group.waitForAll()
            }
            let stored = fixture.store.factors(userID: "user-\(round)").map(\.id)
            #expect(stored.count == MultiFactorConfiguration.maximumFactorCount)
            try #require(Set(user.multiFactor.enrolledFactors.map(\.uid)) == Set(stored), "round \(round): an enrollment was lost")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in stored {
                    group.addTask { try await user.multiFactor.unenroll(withFactorUID: id) }
                }
                try await group.waitForAll()
            }
            try #require(user.multiFactor.enrolledFactors.isEmpty, "round \(round): an unenrollment was lost")
        }
    }
}
