import Benchmark
import BenchmarkWorkload
import CReferenceOpenSSL
import OTPCore

// The hardware limit: OpenSSL streaming a large buffer through the compression function, one
// benchmark unit per block (64 bytes, 128 for SHA-512). A code needs two blocks, a verification
// with n candidates 2n.
func registerHashLimitBenchmarks() {
    let buffer = [UInt8](repeating: 0xA5, count: 128 * Workload.batch)
    Benchmark("limit.block.sha1") { benchmark in
        buffer.withUnsafeBytes { bytes in
            var context = SHA_CTX()
            SHA1_Init(&context)
            SHA1_Update(&context, bytes.baseAddress, 64 * benchmark.scaledIterations.count)
            blackHole(context.h0)
        }
    }
    Benchmark("limit.block.sha256") { benchmark in
        buffer.withUnsafeBytes { bytes in
            var context = SHA256_CTX()
            SHA256_Init(&context)
            SHA256_Update(&context, bytes.baseAddress, 64 * benchmark.scaledIterations.count)
            blackHole(context.h.0)
        }
    }
    Benchmark("limit.block.sha512") { benchmark in
        buffer.withUnsafeBytes { bytes in
            var context = SHA512_CTX()
            SHA512_Init(&context)
            SHA512_Update(&context, bytes.baseAddress, 128 * benchmark.scaledIterations.count)
            blackHole(context.h.0)
        }
    }

    // The limit for independent messages, such as a window's candidates: four chains interleaved
    // on the SHA extensions (OTPKit's lane kernels), still one unit per block. Codes and
    // verifications are judged against the higher of the two limits.
    for algorithm in [OTPAlgorithm.sha1, .sha256] {
        Benchmark("limit.lanes4.\(algorithm.rawValue.lowercased())") { benchmark in
            buffer.withUnsafeBytes { bytes in
                blackHole(FourLanes.compress(algorithm, blocks: benchmark.scaledIterations.count, from: bytes.baseAddress!))
            }
        }
    }
}
