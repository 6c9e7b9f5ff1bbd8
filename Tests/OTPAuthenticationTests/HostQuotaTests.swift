import OTPCore
import OTPAuthentication
import OTPTestUtilities
import Testing

/// `MultiFactorService.consumeQuota(key:window:limit:)`, where a host such as `otpkit-server`
/// keeps its own request limits: counted in the store at the service's clock, so every service of
/// one store counts together.
@Suite("Host quotas")
struct HostQuotaTests {
    @Test("uses are allowed while they fit, refused until the bucket has room, then allowed again; services of one store count together")
    func countsInTheStore() async throws {
        let store = InMemoryAuthStore()
        let clock = ManualAuthClock(Fixture.start)
        let service = try MultiFactorService(store: store, clock: clock)
        let other = try MultiFactorService(store: store, clock: clock)
        // Two a minute: both at once, then one each 30 seconds.
        let room = Fixture.start + 30

        #expect(try await service.consumeQuota(key: "host:a", window: 60, limit: 2) == .allowed(remaining: 1))
        #expect(try await other.consumeQuota(key: "host:a", window: 60, limit: 2) == .allowed(remaining: 0))
        #expect(try await service.consumeQuota(key: "host:a", window: 60, limit: 2) == .exceeded(until: room))
        #expect(try await other.consumeQuota(key: "host:b", window: 60, limit: 2) == .allowed(remaining: 1), "each key counts alone")

        clock.set(room - 1)
        #expect(try await service.consumeQuota(key: "host:a", window: 60, limit: 2) == .exceeded(until: room))
        clock.set(room)
        #expect(try await service.consumeQuota(key: "host:a", window: 60, limit: 2) == .allowed(remaining: 0))
        #expect(try await other.consumeQuota(key: "host:a", window: 60, limit: 2) == .exceeded(until: room + 30))
    }

    @Test("a failing store is internalError naming the step, without the store's detail")
    func storeFailure() async throws {
        let store = FailingStore()
        let log = CapturedLog()
        let service = try MultiFactorService(store: store, clock: ManualAuthClock(Fixture.start), logger: log.logger)
        store.fail("consumeQuota")
        let error = await #expect(throws: AuthError.self) { _ = try await service.consumeQuota(key: "host:a", window: 60, limit: 2) }
        #expect(error?.code == .internalError)
        #expect(error?.message.contains("counting a request") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("/var/lib") == false)
        #expect(log.lines.count == 1 && log.lines.first?.contains("operation=counting a request") == true, "the log has the detail: \(log.lines)")
        store.fail(nil)
        #expect(try await service.consumeQuota(key: "host:a", window: 60, limit: 2) == .allowed(remaining: 1), "the failure counted nothing")
    }
}
