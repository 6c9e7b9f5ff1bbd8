import Benchmark
import BenchmarkWorkload

// The reference points OTPKit is compared with; names are `implementation.workload` like
// OTPKitBenchmarks' so report.sh can line them up.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Workload.configuration
    registerHashLimitBenchmarks()
    registerSwiftCryptoBenchmarks()
    registerOpenSSLHMACBenchmarks()
    registerLibOATHBenchmarks()
}
