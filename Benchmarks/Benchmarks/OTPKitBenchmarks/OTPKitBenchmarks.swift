import Benchmark
import BenchmarkWorkload

// Names are `implementation.workload`; report.sh lines implementations up by workload. The
// reference points live in the ReferenceBenchmarks target, which report.sh runs in the same
// invocation, so CI's allocation check builds neither swift-crypto nor liboath.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Workload.configuration
    registerOTPKitBenchmarks()
    registerFormatBenchmarks()
    registerPairedBenchmarks()
}
