public import OTPCore

/// The workload every implementation runs, so that rates compare like with like: the RFC 6238 test
/// secrets, 1000 consecutive 30-second steps from a fixed time, six-digit codes. pyotp_bench.py
/// mirrors these values.
public enum Workload {
    /// Codes per benchmark iteration; matches the `.kilo` scaling factor.
    public static let batch = 1000
    public static let startTime: Int64 = 1_700_000_000
    public static let period: Int64 = 30
    public static let digits = 6

    public static func times() -> [Int64] {
        (0..<batch).map { startTime + Int64($0) * period }
    }

    /// RFC 6238 appendix B seeds: 20, 32 and 64 bytes.
    public static func secretBytes(_ algorithm: OTPAlgorithm) -> [UInt8] {
        let seed: String
        switch algorithm {
        case .sha1: seed = "12345678901234567890"
        case .sha256: seed = "12345678901234567890123456789012"
        case .sha512: seed = "1234567890123456789012345678901234567890123456789012345678901234"
        }
        return Array(seed.utf8)
    }

    public static func secret(_ algorithm: OTPAlgorithm) -> OTPSecret {
        try! OTPSecret(bytes: secretBytes(algorithm))
    }

    public static func totp(_ algorithm: OTPAlgorithm) -> TOTP {
        try! TOTP(secret: secret(algorithm), algorithm: algorithm, digits: digits, period: period)
    }

    /// Per time: the code that verifies (the current step's) and one that matches no step of the
    /// widest window measured, so a miss costs every candidate.
    public static func codes(window: VerificationWindow) -> (hit: [String], miss: [String]) {
        let totp = totp(.sha1)
        var hits: [String] = []
        var misses: [String] = []
        for time in times() {
            let hit = try! totp.code(at: time)
            var value = (Int(hit)! + 500_000) % 1_000_000
            var miss = String(value).leftPadded(to: digits)
            while try! totp.verify(miss, at: time, window: window) != nil {
                value = (value + 1) % 1_000_000
                miss = String(value).leftPadded(to: digits)
            }
            hits.append(hit)
            misses.append(miss)
        }
        return (hits, misses)
    }

    public static let windows = [0, 1, 5, 10]
}

extension String {
    /// The way most TOTP snippets zero-pad a code.
    public func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: Swift.max(0, length - count)) + self
    }
}
