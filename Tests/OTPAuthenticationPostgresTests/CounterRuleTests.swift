import OTPAuthentication
import OTPAuthenticationPostgres
import Testing

/// The failure counter and the quota are single SQL statements on PostgreSQL; these check them
/// against the rules every store shares (FailureCounter.recordingFailure, QuotaBucket.consuming).
@Suite("Postgres: counters follow the shared rules")
struct CounterRuleTests {
    @Test("recordFailure equals FailureCounter.recordingFailure over random sequences")
    func failures() async throws {
        try await withStore { store, _ in
            var generator = SystemRandomNumberGenerator()
            for run in 0..<6 {
                let key = "key-\(run)"
                let limit = Int.random(in: 1...4, using: &generator)
                let lockout = Int64.random(in: 1...20, using: &generator)
                var model = FailureCounter.zero
                var time: Int64 = 1_000
                for _ in 0..<25 {
                    time += Int64.random(in: 0...8, using: &generator)
                    model = model.recordingFailure(at: time, limit: limit, lockout: lockout)
                    let stored = try await store.recordFailure(key: key, at: time, limit: limit, lockout: lockout)
                    #expect(stored == model, "run \(run) at \(time), limit \(limit), lockout \(lockout)")
                    #expect(try await store.failureCounter(key: key) == model)
                }
            }
        }
    }

    @Test("consumeQuota equals QuotaBucket.consuming over random sequences")
    func quotas() async throws {
        try await withStore { store, _ in
            var generator = SystemRandomNumberGenerator()
            for run in 0..<6 {
                let key = "quota-\(run)"
                let window = Int64.random(in: 1...10, using: &generator)
                let limit = Int.random(in: 0...3, using: &generator)
                var model: QuotaBucket?
                var time: Int64 = -20
                for _ in 0..<25 {
                    time += Int64.random(in: 0...4, using: &generator)
                    let (bucket, expected) = QuotaBucket.consuming(model, window: window, limit: limit, at: time)
                    model = bucket
                    let outcome = try await store.consumeQuota(key: key, window: window, limit: limit, at: time)
                    #expect(outcome == expected, "run \(run) at \(time), window \(window), limit \(limit)")
                }
            }
        }
    }
}
