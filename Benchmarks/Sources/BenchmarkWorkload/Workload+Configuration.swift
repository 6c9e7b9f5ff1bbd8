public import Benchmark

extension Workload {
    /// How the benchmarks of a thousand operations an iteration (``batch``) run: throughput, wall
    /// clock and allocations, ten warm-up iterations, two seconds or 100,000 iterations at most.
    public static var configuration: Benchmark.Configuration {
        .init(
            metrics: [.throughput, .wallClock, .mallocCountTotal],
            warmupIterations: 10,
            scalingFactor: .kilo,
            maxDuration: .seconds(2),
            maxIterations: 100_000
        )
    }
}
