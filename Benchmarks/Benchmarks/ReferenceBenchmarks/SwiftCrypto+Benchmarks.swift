import Benchmark
import Crypto
import Foundation
import BenchmarkWorkload
import OTPCore

/// TOTP the way most Swift snippets write it with swift-crypto: a `SymmetricKey` kept per secret,
/// then HMAC over the big-endian counter, dynamic truncation and a zero-padded string per code.
struct SwiftCryptoTOTP {
    let key: SymmetricKey
    let algorithm: OTPAlgorithm

    func code(at time: Int64) -> String {
        var counter = UInt64(time / Workload.period).bigEndian
        let message = Data(bytes: &counter, count: 8)
        let mac: [UInt8]
        switch algorithm {
        case .sha1: mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256: mac = Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512: mac = Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary =
            (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        return String(binary % 1_000_000).leftPadded(to: Workload.digits)
    }

    func verify(_ code: String, at time: Int64, window: Int) -> Bool {
        for step in -window...window where self.code(at: time + Int64(step) * Workload.period) == code {
            return true
        }
        return false
    }
}

func registerSwiftCryptoBenchmarks() {
    let times = Workload.times()
    for algorithm in OTPAlgorithm.allCases {
        let totp = SwiftCryptoTOTP(key: SymmetricKey(data: Workload.secretBytes(algorithm)), algorithm: algorithm)
        precondition(totp.code(at: times[0]) == (try! Workload.totp(algorithm).code(at: times[0])))
        Benchmark("swiftcrypto.generate.\(algorithm.rawValue.lowercased())") { benchmark in
            for index in benchmark.scaledIterations {
                blackHole(totp.code(at: times[index]))
            }
        }
    }
    let totp = SwiftCryptoTOTP(key: SymmetricKey(data: Workload.secretBytes(.sha1)), algorithm: .sha1)
    for steps in Workload.windows {
        let codes = Workload.codes(window: try! VerificationWindow(adjacentIntervals: steps))
        for (outcome, list) in [("hit", codes.hit), ("miss", codes.miss)] {
            Benchmark("swiftcrypto.verify.w\(steps).\(outcome)") { benchmark in
                for index in benchmark.scaledIterations {
                    blackHole(totp.verify(list[index], at: times[index], window: steps))
                }
            }
        }
    }
}
