import Logging
import MetricsTestKit
import OTPAuthentication
import OTPServer
import Testing

/// The server's periodic purge, one run at a time with the clock moved by the test.
@Suite("Housekeeping")
struct HousekeepingTests {
    @Test("a purge deletes the sessions and pending enrollments that ran out, keeps the live ones, and is counted")
    func purgeDeletesWhatRanOut() async throws {
        let clock = ManualAuthClock(1_800_000_000)
        let store = InMemoryAuthStore()
        let configuration = MultiFactorConfiguration(sessionIdleLifetime: 3_600)
        let service = try MultiFactorService(configuration: configuration, store: store, clock: clock)
        let metrics = TestMetrics()
        let housekeeping = Housekeeping(service: service, logger: Logger(label: "test"), metricsFactory: metrics)

        let stale = try await service.signIn(FirstFactorIdentity(userID: "ada", email: "ada@example.com", isEmailVerified: true, provider: .password))
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await stale.multiFactor.session())
        clock.advance(by: 3_601)
        let live = try await service.signIn(FirstFactorIdentity(userID: "bob", email: "bob@example.com", isEmailVerified: true, provider: .password))
        #expect(try await store.session(id: stale.sessionID) != nil, "nothing deletes it before the purge")
        #expect(try await store.pendingEnrollment(id: secret.sessionInfo) != nil)

        #expect(await housekeeping.purgeOnce())
        #expect(try await store.session(id: stale.sessionID) == nil)
        #expect(try await store.pendingEnrollment(id: secret.sessionInfo) == nil)
        #expect(try await store.session(id: live.sessionID) != nil)
        #expect(try metrics.expectCounter("otpkit_purges_total", [("outcome", "done")]).totalValue == 1)
        #expect(try metrics.expectCounter("otpkit_purges_total", [("outcome", "failed")]).totalValue == 0)
        #expect(try metrics.expectGauge("otpkit_purge_last_done_seconds").lastValue == Double(clock.now()))
    }

    @Test("--purge-interval takes 0 (none) or seconds; a negative value stops the start")
    func purgeIntervalSetting() async throws {
        try await ServerProcess.expectRefusedAtStart([(["--purge-interval=-5"], "--purge-interval must be 0 (no purge) or a number of seconds")])
        try await ServerProcess.with(arguments: ["--emulator", "--purge-interval", "0"]) { server in
            let ready = try await server.get("/")
            #expect(ready.status == 200)
        }
    }
}
