import Benchmark
import Foundation
import OTPAuthenticationSQLite

nonisolated(unsafe) var concurrentFixture: SignInFixture!

/// The percentile `fraction` of `values`, in microseconds.
func percentile(_ values: [Int], _ fraction: Double) -> Int {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] / 1000
}

/// Durable sign-ins (first factor, then `resolveSignIn` with a fresh code) of a thousand users
/// from 1, 16, 64 and 256 concurrent clients on one SQLite database, with group commit and sign-ins
/// decided in sets (the default options) and, for the ratio in the same run, with a commit per
/// operation and every sign-in decided alone. Each iteration is every user signing
/// in once; time is per sign-in (`scalingFactor: .kilo`), and each iteration's p50 and p99
/// latency of a single sign-in are reported in microseconds.
func registerConcurrentSignInBenchmarks() {
    let p50 = BenchmarkMetric.custom("latency p50 (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let p99 = BenchmarkMetric.custom("latency p99 (us)", polarity: .prefersSmaller, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .cpuTotal, p50, p99, MachineCPU.busyMetric, MachineCPU.perOperationMetric], warmupIterations: 1,
        scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 20)
    for (name, operationsPerCommit) in [("grouped", SQLiteAuthStore.Options().maximumOperationsPerCommit), ("alone", 1)] {
        for clients in [1, 16, 64, 256] {
            Benchmark("otpkit.enrollment.signin.sqlite.\(name).clients\(clients)", configuration: configuration) { benchmark in
                let started = MachineCPU.now()
                benchmark.startMeasurement()
                let latencies = try await concurrentFixture.signInEveryone(clients: clients)
                benchmark.stopMeasurement()
                if let started, let ended = MachineCPU.now() { started.until(ended).record(in: benchmark, operations: latencies.count) }
                benchmark.measurement(p50, percentile(latencies, 0.50))
                benchmark.measurement(p99, percentile(latencies, 0.99))
            } setup: {
                let key = try makeSQLiteDirectory()
                let store = try await openSQLiteStore(key: key, options: .init(maximumOperationsPerCommit: operationsPerCommit))
                concurrentFixture = try SignInFixture(store: store, users: 1000)
                try await concurrentFixture.enroll()
            } teardown: {
                try? FileManager.default.removeItem(at: sqliteDirectory)
            }
        }
    }
}
