import Benchmark

// The reference points OTPKit is compared with; names are `implementation.workload` like
// OTPKitBenchmarks' so report.sh can line them up.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )
    registerHashLimitBenchmarks()
    registerSwiftCryptoBenchmarks()
    registerOpenSSLHMACBenchmarks()
    registerLibOATHBenchmarks()
}
