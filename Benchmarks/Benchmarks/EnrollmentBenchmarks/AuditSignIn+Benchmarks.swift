import Benchmark
import Foundation
import OTPAuthentication
import OTPAuthenticationPostgres
import OTPSealing

nonisolated(unsafe) var auditPair: (audited: SignInFixture, unaudited: SignInFixture)!
nonisolated(unsafe) var auditPostgresStore: PostgresAuthStore?

/// What the audit log costs a sign-in: in one run, on one store, a thousand users whose service
/// records every sign-in in the audit log and a thousand whose service records nothing, signing
/// in from 64 concurrent clients, the two alternated round by round (which goes first swaps each
/// iteration), so that both meet the same machine. The audit event is written in the completion's
/// own transaction, so no commit is added: what remains is the row itself. Reported as sign-ins
/// per second of each and their ratio.
func registerAuditSignInBenchmarks() {
    let audited = BenchmarkMetric.custom("sign-ins/s with audit", polarity: .prefersLarger, useScalingFactor: false)
    let unaudited = BenchmarkMetric.custom("sign-ins/s without audit", polarity: .prefersLarger, useScalingFactor: false)
    let ratio = BenchmarkMetric.custom("with / without (%)", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, audited, unaudited, ratio], warmupIterations: 1, maxDuration: .seconds(30), maxIterations: 12)
    for backend in ["memory", "sqlite", "postgres"] {
        nonisolated(unsafe) var round = 0
        Benchmark("otpkit.enrollment.signin.\(backend).audit-alternated.clients64", configuration: configuration) { benchmark in
            round += 1
            var rates: [Bool: Double] = [:]
            benchmark.startMeasurement()
            for withAudit in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                let fixture = withAudit ? auditPair.audited : auditPair.unaudited
                let started = ContinuousClock.now
                let signIns = try await fixture.signInEveryone(clients: 64).count
                let elapsed = ContinuousClock.now - started
                rates[withAudit] = Double(signIns) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            benchmark.stopMeasurement()
            let with = rates[true] ?? 0
            let without = rates[false] ?? 0
            benchmark.measurement(audited, Int(with))
            benchmark.measurement(unaudited, Int(without))
            benchmark.measurement(ratio, without > 0 ? Int((with / without * 100).rounded()) : 0)
        } setup: {
            let store: any AuthStore
            switch backend {
            case "memory":
                store = InMemoryAuthStore()
            case "sqlite":
                store = try await openSQLiteStore(key: try makeSQLiteDirectory())
            default:
                try await resetSchema()
                let sealer = try SecretSealer(current: SealingKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }))
                let postgres = try await PostgresAuthStore.open(environment: postgresEnvironment(), sealer: sealer, poolSize: 32)
                auditPostgresStore = postgres
                store = postgres
            }
            let withAudit = try SignInFixture(store: store, userIDs: (0..<1000).map { "audited-\($0)" })
            let withoutAudit = try SignInFixture(
                store: store, userIDs: (0..<1000).map { "unaudited-\($0)" }, auditLog: AuditSettings(isEnabled: false))
            try await withAudit.enroll()
            try await withoutAudit.enroll()
            auditPair = (withAudit, withoutAudit)
        } teardown: {
            if let store = auditPostgresStore { await store.close() }
            auditPostgresStore = nil
            auditPair = nil
            if backend == "sqlite" { try? FileManager.default.removeItem(at: sqliteDirectory) }
        }
    }
}
