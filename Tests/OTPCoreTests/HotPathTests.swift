import OTPCore
import Testing

/// The special cases the hot path takes for speed must agree with the general ones.
@Suite("Hot path special cases")
struct HotPathTests {
    @Test(
        "The 30-second step equals the plain quotient across the whole time range", arguments: [Int64.min, -1_000_000_007, -1, 0, 1, 1_000_000_000])
    func thirtySecondStep(epoch: Int64) throws {
        let totp = try TOTP(secret: OTPSecret(bytes: Array(repeating: 7, count: 20)), period: 30, epoch: epoch)
        var times: [Int64] = [epoch, epoch &+ 29, epoch &+ 30, epoch &+ 59, epoch &+ 60, Int64.max, Int64.max - 29, Int64.max - 30]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            times.append(Int64.random(in: epoch...Int64.max, using: &generator))
        }
        for time in times where time >= epoch {
            let elapsed = UInt64(bitPattern: time) &- UInt64(bitPattern: epoch)
            #expect(try totp.step(at: time) == elapsed / 30, "time \(time), epoch \(epoch)")
        }
    }

    @Test("Candidates verified in pairs keep their offsets, for every hash and window shape", arguments: OTPAlgorithm.allCases)
    func pairedCandidates(algorithm: OTPAlgorithm) throws {
        // A fixed secret, so the codes are the same every run and the check below settles once
        // that no two candidates of a window share a code (which would make the first one win).
        let secret = try OTPSecret(bytes: (0..<algorithm.blockByteCount).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) })
        let totp = try TOTP(secret: secret, algorithm: algorithm, digits: 8)
        let now: Int64 = 1_700_000_000
        let current = try totp.step(at: now)
        for (behind, ahead) in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 5), (4, 1), (3, 3)] {
            let window = try VerificationWindow(behind: behind, ahead: ahead)
            let steps = (-behind...ahead).map { UInt64(Int64(current) + Int64($0)) }
            try #require(Set(steps.map { totp.code(step: $0) }).count == steps.count, "two candidates share a code")
            for offset in -behind...ahead {
                let step = UInt64(Int64(current) + Int64(offset))
                let match = try totp.verify(totp.code(step: step), at: now, window: window)
                #expect(match == TOTPMatch(step: step, offset: offset), "window -\(behind)/+\(ahead)")
            }
        }
    }

    @Test("HOTP look-ahead finds each counter of the range")
    func lookAhead() throws {
        let hotp = try HOTP(secret: OTPSecret(bytes: Array("12345678901234567890".utf8)))
        for lookAhead in 0...6 {
            for counter in 10...(10 + UInt64(lookAhead)) {
                #expect(try hotp.verify(hotp.code(counter: counter), counter: 10, lookAhead: lookAhead) == counter)
            }
        }
    }
}
