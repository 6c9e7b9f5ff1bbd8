import Benchmark
import BenchmarkWorkload
import OTPCore
import OTPQR
import OTPURI

/// otpauth:// and QR work for a key a server hands out at enrollment: a 32-byte SHA-256 secret
/// with an issuer and an e-mail account name.
func registerFormatBenchmarks() {
    let uri = try! OTPAuthURI(
        issuer: "Example Corp",
        accountName: "alice@example.com",
        secret: Workload.secret(.sha256),
        algorithm: .sha256
    )
    let text = uri.string
    precondition(try! OTPAuthURI(parsing: text) == uri)

    Benchmark("otpkit.uri.format") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(uri.string)
        }
    }
    Benchmark("otpkit.uri.parse") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try! OTPAuthURI(parsing: text))
        }
    }

    // One QR code per iteration: these take tens of microseconds or more.
    let single = Benchmark.Configuration(metrics: [.throughput, .wallClock, .mallocCountTotal], scalingFactor: .one)
    Benchmark("otpkit.qr.encode", configuration: single) { _ in
        blackHole(try! QRCode(encoding: text))
    }
    Benchmark("otpkit.qr.terminal", configuration: single) { _ in
        blackHole(try! QRCode(encoding: text).utf8String())
    }
    Benchmark("otpkit.qr.png", configuration: single) { _ in
        blackHole(try! QRCode(encoding: text).pngData())
    }
}
