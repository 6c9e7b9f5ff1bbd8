import Logging
import OTPAuthentication
import OTPTestUtilities
import Testing

@Suite("Logging")
struct LoggingTests {
    @Test("a whole flow at trace level logs events but never a secret, a code or a credential")
    func noSecretsInLogs() async throws {
        let log = CapturedLog()
        let logger = log.logger
        let clock = ManualAuthClock(Fixture.start)
        let store = InMemoryAuthStore()
        let service = try MultiFactorService(
            configuration: MultiFactorConfiguration(maximumConsecutiveFailures: 2), store: store, clock: clock, logger: logger)
        let fixture = try Fixture()
        var sensitive: [String] = []

        let user = try await service.signIn(Fixture.identity())
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
        sensitive.append(secret.sharedSecretKey())
        let code = try fixture.code(secret, at: clock.now())
        sensitive.append(code)
        try await user.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: nil)
        let info = user.multiFactor.enrolledFactors[0]

        clock.advance(by: 30)
        let error = await #expect(throws: AuthError.self) { _ = try await service.signIn(Fixture.identity()) }
        let resolver = try #require(error?.resolver)
        let wrong = try codeOutsideWindow(secret, at: clock.now(), adjacentIntervals: service.configuration.adjacentIntervals)
        sensitive.append(wrong)
        for _ in 0..<2 {
            let failure = await #expect(throws: AuthError.self) {
                _ = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: wrong))
            }
            for value in sensitive { #expect(failure?.description.contains(value) == false) }
        }
        clock.advance(by: 300)
        let good = try fixture.code(secret, at: clock.now())
        sensitive.append(good)
        let result = try await resolver.resolveSignIn(
            with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: info.uid, oneTimePassword: good))
        sensitive.append(result.user.sessionID)
        #expect(await authErrorCode { try await result.user.multiFactor.unenroll(with: info) } == .invalidUserToken)

        let lines = log.lines
        #expect(
            lines == [
                "info TOTP enrollment started [deadline=\(Fixture.start + 600) user=alice]",
                "info TOTP factor enrolled [enrollment=\(info.uid) revoked-sessions=0 user=alice]",
                "notice locked after repeated failed codes [kind=factor seconds=300]",
                "debug signed in with TOTP [enrollment=\(info.uid) user=alice]",
                "info factor unenrolled [ended-sessions=1 enrollment=\(info.uid) user=alice]",
            ])
        for line in lines {
            for value in sensitive {
                #expect(!line.contains(value), "log line leaks a sensitive value: \(line)")
            }
        }
    }
}
