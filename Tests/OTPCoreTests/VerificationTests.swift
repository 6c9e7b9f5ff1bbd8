import OTPCore
import Testing

@Suite("Verification with a drift window")
struct VerificationTests {
    let totp = try! TOTP(secret: OTPSecret(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"))
    let now: Int64 = 1_111_111_111

    @Test(
        "Each step inside the window matches with its offset; the next one outside does not",
        arguments: [(0, 0), (1, 1), (2, 3), (5, 5), (10, 10), (0, 4), (20, 3), (100, 100)])
    func window(behind: Int, ahead: Int) throws {
        let window = try VerificationWindow(behind: behind, ahead: ahead)
        let current = try totp.step(at: now)
        for offset in -behind...ahead {
            let step = UInt64(Int64(current) + Int64(offset))
            let match = try totp.verify(totp.code(step: step), at: now, window: window)
            #expect(match == TOTPMatch(step: step, offset: offset))
        }
        for outside in [current - UInt64(behind) - 1, current + UInt64(ahead) + 1] {
            let code = totp.code(step: outside)
            // The secret and time are fixed, so whether an outside code equals one inside is
            // settled once; if one did, it would match and this test would prove nothing.
            let collides = (-behind...ahead).contains { totp.code(step: UInt64(Int64(current) + Int64($0))) == code }
            try #require(!collides, "step \(outside)'s code equals one inside the window")
            #expect(try totp.verify(code, at: now, window: window) == nil)
        }
    }

    @Test("Firebase adjacentIntervals means that many steps on each side")
    func adjacentIntervals() throws {
        let window = try VerificationWindow(adjacentIntervals: 5)
        #expect(window == .firebaseDefault)
        #expect(window.candidateCount == 11)
        #expect(try totp.verify(totp.code(at: now - 150), at: now, window: window)?.offset == -5)
        #expect(try totp.verify(totp.code(at: now + 150), at: now, window: window)?.offset == 5)
    }

    @Test("Replay protection accepts only a step later than the last accepted one")
    func replay() throws {
        let code = try totp.code(at: now)
        let first = try #require(try totp.verify(code, at: now, window: .oneStep, after: nil))
        #expect(try totp.verify(code, at: now, window: .oneStep, after: first.step) == nil)
        #expect(try totp.verify(code, at: now + 30, window: .oneStep, after: first.step) == nil)
        let earlier = try totp.code(at: now - 30)
        #expect(try totp.verify(earlier, at: now, window: .oneStep, after: first.step) == nil)
        let next = try totp.code(at: now + 30)
        #expect(try totp.verify(next, at: now + 30, window: .oneStep, after: first.step) == TOTPMatch(step: first.step + 1, offset: 0))
    }

    @Test("A wrong code does not match")
    func wrongCode() throws {
        let code = try totp.code(at: now)
        let wrong = String(code.dropLast()) + (code.last == "0" ? "1" : "0")
        #expect(try totp.verify(wrong, at: now, window: .exact) == nil)
    }

    @Test("The window is clipped at step 0 instead of wrapping around")
    func clippedAtZero() throws {
        let window = try VerificationWindow(adjacentIntervals: 3)
        #expect(try totp.verify(totp.code(step: 0), at: 0, window: window) == TOTPMatch(step: 0, offset: 0))
        #expect(try totp.verify(totp.code(step: 2), at: 30, window: window) == TOTPMatch(step: 2, offset: 1))
        #expect(try totp.verify(totp.code(step: UInt64.max), at: 0, window: window) == nil)
    }

    @Test(
        "64-bit time: 2^31, 2^32, after 2106 and year 2500",
        arguments: [2_147_483_647, 2_147_483_648, 4_294_967_296, 4_354_819_200, 16_725_225_600] as [Int64])
    func largeTimes(time: Int64) throws {
        let step = try totp.step(at: time)
        #expect(step == UInt64(time / 30))
        #expect(totp.startOfStep(step) <= time && time < totp.startOfStep(step) + 30)
        #expect(try totp.verify(totp.code(at: time), at: time, window: .exact)?.step == step)
    }

    @Test("HOTP look-ahead returns the counter that matched")
    func hotpLookAhead() throws {
        let hotp = totp.hotp
        #expect(try hotp.verify(hotp.code(counter: 12), counter: 10, lookAhead: 3) == 12)
        try #require(!(10...13).contains { hotp.code(counter: $0) == hotp.code(counter: 9) }, "counter 9's code recurs in 10...13")
        #expect(try hotp.verify(hotp.code(counter: 9), counter: 10, lookAhead: 3) == nil)
    }

    @Test("Of candidates with the same code the nearest wins, the earlier of two as near, and replay protection skips the refused one")
    func sameCodeTwice() throws {
        // Six-digit codes repeat: among 200,000 steps about twenty pairs of equal codes lie an even
        // distance of at most 200 apart. Verifying one of them at the step halfway between puts
        // both in the window at -d and +d.
        let hotp = totp.hotp
        let values = hotp.key.truncatedValues(counters: 0..<200_000).map { $0 % 1_000_000 }
        var lastSeen: [UInt32: Int] = [:]
        var pairs: [(earlier: UInt64, later: UInt64)] = []
        for (step, value) in values.enumerated() {
            if let previous = lastSeen[value], (step - previous) % 2 == 0, step - previous <= 200 {
                pairs.append((UInt64(previous), UInt64(step)))
            }
            lastSeen[value] = step
        }
        try #require(pairs.count >= 3, "too few pairs of equal codes to test with")
        for (earlier, later) in pairs {
            let distance = Int(later - earlier) / 2
            let center = earlier + UInt64(distance)
            let window = try VerificationWindow(behind: distance, ahead: distance)
            let at = Int64(center) * 30
            let code = hotp.code(counter: earlier)
            #expect(try totp.verify(code, at: at, window: window) == TOTPMatch(step: earlier, offset: -distance))
            #expect(try totp.verify(code, at: at, window: window, after: earlier) == TOTPMatch(step: later, offset: distance))
            #expect(try totp.verify(code, at: at, window: window, after: later) == nil)
            // One step further on, the later one is nearer.
            #expect(try totp.verify(code, at: at + 30, window: try VerificationWindow(adjacentIntervals: distance + 1))?.step == later)
        }
    }

    @Test("Every digit count verifies its codes at their offsets and refuses a wrong one", arguments: 6...10)
    func digitCounts(digits: Int) throws {
        let totp = try TOTP(key: totp.hotp.key, digits: digits)
        let current = try totp.step(at: now)
        let window = try VerificationWindow(adjacentIntervals: 2)
        let codes = (-2...2).map { totp.code(step: current &+ UInt64(bitPattern: Int64($0))) }
        try #require(Set(codes).count == codes.count, "two steps of the window share a code")
        for (index, code) in codes.enumerated() {
            #expect(try totp.verify(code, at: now, window: window) == TOTPMatch(step: current + UInt64(index) - 2, offset: index - 2))
        }
        // Changing the last digit of the current code makes it wrong unless another step has that code.
        let current0 = codes[2]
        let wrong = String(current0.dropLast()) + (current0.last == "0" ? "1" : "0")
        try #require(!codes.contains(wrong))
        #expect(try totp.verify(wrong, at: now, window: window) == nil)
    }

    @Test("HOTP look-ahead stops at the largest counter instead of wrapping around")
    func lookAheadAtTheEnd() throws {
        let hotp = totp.hotp
        #expect(try hotp.verify(hotp.code(counter: .max), counter: .max - 2, lookAhead: 5) == .max)
        #expect(try hotp.verify(hotp.code(counter: .max - 1), counter: .max - 1, lookAhead: 100) == .max - 1)
        try #require(!((UInt64.max - 3)...UInt64.max).contains { hotp.code(counter: $0) == hotp.code(counter: 0) })
        #expect(try hotp.verify(hotp.code(counter: 0), counter: .max - 3, lookAhead: 10) == nil)
    }

    @Test("A custom epoch and period shift the steps")
    func customEpoch() throws {
        let shifted = try TOTP(key: totp.hotp.key, digits: 6, period: 60, epoch: 1_000_000)
        #expect(try shifted.step(at: 1_000_119) == 1)
        #expect(try shifted.code(at: 1_000_119) == shifted.code(step: 1))
        #expect(try shifted.code(at: 1_000_119) == totp.hotp.code(counter: 1))
    }
}
