import Benchmark
import BenchmarkWorkload
import CReferenceOpenSSL
import Dispatch
import OTPCore

#if canImport(Glibc)
    import Glibc
#endif

// Ratios measured inside every iteration: the hash limit streaming N blocks, then OTPKit doing N
// blocks' worth of work, back to back, so both halves run on the same machine in the same
// moment. On a shared machine other processes slow whole benchmarks down by different amounts;
// the median of these per-iteration ratios is what they disturb least. Reported in per mille.

private let shareOfLimit = BenchmarkMetric.custom("share of limit (per mille)", polarity: .prefersLarger, useScalingFactor: false)
private let speedup = BenchmarkMetric.custom("speed-up (per mille)", polarity: .prefersLarger, useScalingFactor: false)

private func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Nanoseconds for OpenSSL to stream `blocks` blocks of `algorithm`.
private func limitNanoseconds(_ algorithm: OTPAlgorithm, blocks: Int, buffer: UnsafeRawBufferPointer) -> UInt64 {
    let start = nanoseconds()
    switch algorithm {
    case .sha1:
        var context = SHA_CTX()
        SHA1_Init(&context)
        SHA1_Update(&context, buffer.baseAddress, 64 * blocks)
        blackHole(context.h0)
    case .sha256:
        var context = SHA256_CTX()
        SHA256_Init(&context)
        SHA256_Update(&context, buffer.baseAddress, 64 * blocks)
        blackHole(context.h.0)
    case .sha512:
        var context = SHA512_CTX()
        SHA512_Init(&context)
        SHA512_Update(&context, buffer.baseAddress, 128 * blocks)
        blackHole(context.h.0)
    }
    return nanoseconds() - start
}

/// Nanoseconds for four interleaved chains on the lane kernels to compress `blocks` blocks of
/// `algorithm` (SHA-1 or SHA-256; a multiple of four): the limit for independent messages.
private func lanesLimitNanoseconds(_ algorithm: OTPAlgorithm, blocks: Int, buffer: UnsafeRawBufferPointer) -> UInt64 {
    let start = nanoseconds()
    blackHole(FourLanes.compress(algorithm, blocks: blocks, from: buffer.baseAddress!))
    return nanoseconds() - start
}

func registerPairedBenchmarks() {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 128 * 2_200, alignment: 64)
    buffer.initializeMemory(as: UInt8.self, repeating: 0xA5)
    let input = UnsafeRawBufferPointer(buffer)
    let times = Workload.times()
    let ratio = Benchmark.Configuration(metrics: [.throughput, shareOfLimit], warmupIterations: 20, scalingFactor: .one, maxDuration: .seconds(2))

    for algorithm in OTPAlgorithm.allCases {
        let totp = Workload.totp(algorithm)
        let name = algorithm.rawValue.lowercased()
        // 500 codes are 1000 blocks.
        Benchmark("ratio.generate.\(name)", configuration: ratio) { benchmark in
            let limit = limitNanoseconds(algorithm, blocks: 1_000, buffer: input)
            let start = nanoseconds()
            for index in 0..<500 {
                blackHole(try! totp.code(at: times[index]))
            }
            benchmark.measurement(shareOfLimit, Int(1_000 * limit / (nanoseconds() - start)))
        }
        Benchmark("ratio.value.\(name)", configuration: ratio) { benchmark in
            let limit = limitNanoseconds(algorithm, blocks: 1_000, buffer: input)
            let start = nanoseconds()
            for index in 0..<500 {
                blackHole(totp.hotp.value(counter: try! totp.step(at: times[index])))
            }
            benchmark.measurement(shareOfLimit, Int(1_000 * limit / (nanoseconds() - start)))
        }
    }

    // 100 verifications of ±5 are 2200 blocks: against the streamed limit and the four-lane one.
    let totp = Workload.totp(.sha1)
    let window = VerificationWindow.firebaseDefault
    let misses = Workload.codes(window: window).miss
    for (name, limitTime) in [("ratio.verify.w5.miss", limitNanoseconds), ("ratio.lanes4.verify.w5.miss", lanesLimitNanoseconds)] {
        Benchmark(name, configuration: ratio) { benchmark in
            let limit = limitTime(.sha1, 2_200, input)
            let start = nanoseconds()
            for index in 0..<100 {
                blackHole(try! totp.verify(misses[index], at: times[index], window: window))
            }
            benchmark.measurement(shareOfLimit, Int(1_000 * limit / (nanoseconds() - start)))
        }
    }
    // Codes in bulk against the four-lane limit: 500 codes, 1000 blocks, one call.
    for algorithm in [OTPAlgorithm.sha1, .sha256] {
        let key = PreparedKey(secret: Workload.secret(algorithm), algorithm: algorithm)
        let counters = (0..<UInt64(500)).map { UInt64(Workload.startTime / Workload.period) + $0 }
        Benchmark("ratio.lanes4.batch.\(algorithm.rawValue.lowercased())", configuration: ratio) { benchmark in
            let limit = lanesLimitNanoseconds(algorithm, blocks: 1_000, buffer: input)
            let start = nanoseconds()
            blackHole(key.truncatedValues(counters: counters))
            benchmark.measurement(shareOfLimit, Int(1_000 * limit / (nanoseconds() - start)))
        }
    }

    // One core, then both cores on twice the work.
    let scaling = Benchmark.Configuration(metrics: [.throughput, speedup], warmupIterations: 20, scalingFactor: .one, maxDuration: .seconds(2))
    Benchmark("ratio.verify.w5.miss.2cores", configuration: scaling) { benchmark in
        let start = nanoseconds()
        for index in 0..<400 {
            blackHole(try! totp.verify(misses[index], at: times[index], window: window))
        }
        let one = nanoseconds() - start
        let both = nanoseconds()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for index in 0..<400 {
                blackHole(try! totp.verify(misses[index], at: times[index], window: window))
            }
        }
        benchmark.measurement(speedup, Int(2_000 * one / (nanoseconds() - both)))
    }
}
