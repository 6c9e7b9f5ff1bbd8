import Benchmark
import CLibOATH
import BenchmarkWorkload
import OTPCore

/// liboath (oathtool's library) with the raw secret, as its API takes it.
struct LibOATHTOTP {
    let secret: [UInt8]
    let flags: Int32

    init(algorithm: OTPAlgorithm) {
        secret = Workload.secretBytes(algorithm)
        switch algorithm {
        case .sha1: flags = 0
        case .sha256: flags = Int32(OATH_TOTP_HMAC_SHA256.rawValue)
        case .sha512: flags = Int32(OATH_TOTP_HMAC_SHA512.rawValue)
        }
    }

    func code(at time: Int64) -> String {
        var output = (
            Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0),
            Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0)
        )
        return withUnsafeMutableBytes(of: &output) { buffer in
            let chars = buffer.baseAddress!.assumingMemoryBound(to: CChar.self)
            secret.withUnsafeBytes { key in
                let result = oath_totp_generate2(
                    key.baseAddress!.assumingMemoryBound(to: CChar.self), key.count,
                    time_t(time), UInt32(Workload.period), 0, UInt32(Workload.digits), flags, chars
                )
                precondition(result == OATH_OK.rawValue, "liboath failed: \(result)")
            }
            return String(cString: chars)
        }
    }

    /// True when the code matches a step within `window` steps of `time`.
    func verify(_ code: String, at time: Int64, window: Int) -> Bool {
        secret.withUnsafeBytes { key in
            var position: Int32 = 0
            var counter: UInt64 = 0
            let result = oath_totp_validate4(
                key.baseAddress!.assumingMemoryBound(to: CChar.self), key.count,
                time_t(time), UInt32(Workload.period), 0, window, &position, &counter, flags, code
            )
            return result >= 0
        }
    }
}

func registerLibOATHBenchmarks() {
    precondition(oath_init() == OATH_OK.rawValue, "oath_init failed")
    let times = Workload.times()
    for algorithm in OTPAlgorithm.allCases {
        let totp = LibOATHTOTP(algorithm: algorithm)
        precondition(totp.code(at: times[0]) == (try! Workload.totp(algorithm).code(at: times[0])))
        Benchmark("liboath.generate.\(algorithm.rawValue.lowercased())") { benchmark in
            for index in benchmark.scaledIterations {
                blackHole(totp.code(at: times[index]))
            }
        }
    }
    let totp = LibOATHTOTP(algorithm: .sha1)
    for steps in Workload.windows {
        let codes = Workload.codes(window: try! VerificationWindow(adjacentIntervals: steps))
        precondition(totp.verify(codes.hit[0], at: times[0], window: steps))
        precondition(!totp.verify(codes.miss[0], at: times[0], window: steps))
        for (outcome, list) in [("hit", codes.hit), ("miss", codes.miss)] {
            Benchmark("liboath.verify.w\(steps).\(outcome)") { benchmark in
                for index in benchmark.scaledIterations {
                    blackHole(totp.verify(list[index], at: times[index], window: steps))
                }
            }
        }
    }
}
