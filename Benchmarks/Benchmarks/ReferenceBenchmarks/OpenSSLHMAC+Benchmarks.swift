import Benchmark
import CReferenceOpenSSL
import BenchmarkWorkload
import OTPCore

/// TOTP on OpenSSL's one-shot `HMAC()`, which runs the key schedule again for every code.
struct OpenSSLHMACTOTP {
    let key: [UInt8]
    let algorithm: OTPAlgorithm

    func code(at time: Int64) -> String {
        var counter = UInt64(time / Workload.period).bigEndian
        var mac = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var length: UInt32 = 0
        let binary = withUnsafeMutableBytes(of: &mac) { output in
            let md: OpaquePointer?
            switch algorithm {
            case .sha1: md = EVP_sha1()
            case .sha256: md = EVP_sha256()
            case .sha512: md = EVP_sha512()
            }
            let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            withUnsafeBytes(of: &counter) { message in
                _ = HMAC(md, key, Int32(key.count), message.baseAddress!.assumingMemoryBound(to: UInt8.self), 8, out, &length)
            }
            let offset = Int(output[Int(length) - 1] & 0x0F)
            return (UInt32(output[offset] & 0x7F) << 24) | (UInt32(output[offset + 1]) << 16)
                | (UInt32(output[offset + 2]) << 8) | UInt32(output[offset + 3])
        }
        return String(binary % 1_000_000).leftPadded(to: Workload.digits)
    }
}

func registerOpenSSLHMACBenchmarks() {
    let times = Workload.times()
    for algorithm in OTPAlgorithm.allCases {
        let totp = OpenSSLHMACTOTP(key: Workload.secretBytes(algorithm), algorithm: algorithm)
        precondition(totp.code(at: times[0]) == (try! Workload.totp(algorithm).code(at: times[0])))
        Benchmark("hmac.generate.\(algorithm.rawValue.lowercased())") { benchmark in
            for index in benchmark.scaledIterations {
                blackHole(totp.code(at: times[index]))
            }
        }
    }
}
