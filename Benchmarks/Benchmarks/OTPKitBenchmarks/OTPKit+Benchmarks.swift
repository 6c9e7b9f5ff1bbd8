import Benchmark
import Dispatch
import BenchmarkWorkload
import OTPCore

func registerOTPKitBenchmarks() {
    for algorithm in OTPAlgorithm.allCases {
        let totp = Workload.totp(algorithm)
        let times = Workload.times()
        Benchmark("otpkit.generate.\(algorithm.rawValue.lowercased())") { benchmark in
            for index in benchmark.scaledIterations {
                blackHole(try! totp.code(at: times[index]))
            }
        }
        // The same code as a number, what a server compares: no String to build.
        Benchmark("otpkit.value.\(algorithm.rawValue.lowercased())") { benchmark in
            for index in benchmark.scaledIterations {
                blackHole(totp.hotp.value(counter: try! totp.step(at: times[index])))
            }
        }
    }

    // Codes in bulk (PreparedKey.truncatedValues(counters:)): the iteration's thousand steps in
    // one call, four at a time side by side on CPUs with the SHA extensions.
    for algorithm in [OTPAlgorithm.sha1, .sha256] {
        let key = PreparedKey(secret: Workload.secret(algorithm), algorithm: algorithm)
        let first = UInt64(Workload.startTime / Workload.period)
        Benchmark("otpkit.batch.\(algorithm.rawValue.lowercased())") { benchmark in
            blackHole(key.truncatedValues(counters: first..<(first + UInt64(benchmark.scaledIterations.count))))
        }
    }

    let base32 = Base32.encode(Workload.secretBytes(.sha1))
    let times = Workload.times()
    Benchmark("otpkit.generate.sha1.base32") { benchmark in
        for index in benchmark.scaledIterations {
            let secret = try! OTPSecret(base32: base32)
            let totp = try! TOTP(secret: secret, period: Workload.period)
            blackHole(try! totp.code(at: times[index]))
        }
    }

    let totp = Workload.totp(.sha1)
    for steps in Workload.windows {
        let window = try! VerificationWindow(adjacentIntervals: steps)
        let codes = Workload.codes(window: window)
        for (outcome, list) in [("hit", codes.hit), ("miss", codes.miss)] {
            Benchmark("otpkit.verify.w\(steps).\(outcome)") { benchmark in
                for index in benchmark.scaledIterations {
                    blackHole(try! totp.verify(list[index], at: times[index], window: window))
                }
            }
        }
    }

    // Both cores: the same verifications split in two halves that run at once. The calling thread
    // takes one half, so only one worker thread is woken per iteration.
    let window = VerificationWindow.firebaseDefault
    let misses = Workload.codes(window: window).miss
    Benchmark("otpkit.verify.w5.miss.2cores", configuration: .init(metrics: [.throughput, .wallClock])) { benchmark in
        let half = benchmark.scaledIterations.count / 2
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            for index in (part * half)..<((part + 1) * half) {
                blackHole(try! totp.verify(misses[index], at: times[index], window: window))
            }
        }
    }

    Benchmark("otpkit.base32.decode") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! Base32.decode(base32))
        }
    }
}
