import Benchmark

// The enrollment service's sign-in, the path a server runs for every second-factor login (TOTP and
// phone). A target of its own so that CI's allocation check on OTPKitBenchmarks does not build
// SwiftNIO and SQLite.
let benchmarks: @Sendable () -> Void = {
    SignInServiceProcess.serveIfAsked()
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )
    registerSignInBenchmarks()
    registerPasskeySignInBenchmarks()
    registerPhoneSignInBenchmarks()
    registerConcurrentSignInBenchmarks()
    registerPasswordBenchmarks()
    registerImportBenchmarks()
    registerPostgresSignInBenchmarks()
    registerAuditSignInBenchmarks()
    registerRawCommitBenchmarks()
}
