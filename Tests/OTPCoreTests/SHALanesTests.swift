import CSHALanesReference
import Foundation
@testable import OTPCore
import Testing

/// The lane kernels against OpenSSL's transforms, and verification through them against
/// verification one code at a time. `Tests/test.sh` runs OTPCore's tests a second time with
/// `OTPKIT_DISABLE_SHA_LANES=1` (all but the kernels' own check), where the public API must give
/// the same answers on OpenSSL alone.
@Suite("SHA lanes")
struct SHALanesTests {
    /// Random chaining values and blocks per algorithm, each through every lane count.
    static let differentialCount = 10_000_000

    @Test("The environment decides the path: lanes on this CPU, OpenSSL with OTPKIT_DISABLE_SHA_LANES")
    func pathFollowsEnvironment() throws {
        let disabled = ProcessInfo.processInfo.environment["OTPKIT_DISABLE_SHA_LANES"] != nil
        // The CI machines have the SHA extensions; a CPU without them fails here rather than
        // leaving the kernels untested.
        #expect(SHALanes.available == !disabled, "SHA extensions missing on this CPU, or the variable ignored")
        let key = PreparedKey(secret: try OTPSecret(bytes: Array(repeating: 1, count: 20)), algorithm: .sha1)
        #expect((key.laneKernel == .sha1) == !disabled)
        #expect(PreparedKey(secret: try OTPSecret(bytes: Array(repeating: 1, count: 64)), algorithm: .sha512).laneKernel == nil)
        // Each hash meets its own kernel, and SHA-512, whose blocks the kernels do not cover, none.
        #expect(LaneKernel(.sha1) == .sha1 && LaneKernel(.sha256) == .sha256 && LaneKernel(.sha512) == nil)
    }

    @Test("1, 2 and 4 lanes equal OpenSSL's SHA1_Transform and SHA256_Transform on 10 million random inputs", arguments: [5, 8])
    func kernelsMatchOpenSSL(words: Int32) throws {
        try #require(SHALanes.available, "the kernels cannot run here (no SHA extensions, or OTPKIT_DISABLE_SHA_LANES)")
        let seed = UInt64.random(in: 0...UInt64.max)
        let mismatches = CSHALanesReference_mismatches(seed, Self.differentialCount, words)
        #expect(mismatches == 0, "\(mismatches) lane results differ from OpenSSL (seed \(seed))")
    }

    @Test("The fused HMAC kernels equal OpenSSL's HMAC on a million random keys and counters", arguments: [5, 8])
    func hotpKernelsMatchOpenSSL(words: Int32) throws {
        try #require(SHALanes.available, "the kernels cannot run here (no SHA extensions, or OTPKIT_DISABLE_SHA_LANES)")
        let seed = UInt64.random(in: 0...UInt64.max)
        let mismatches = CSHALanesReference_hotpMismatches(seed, 1_000_000, words)
        #expect(mismatches == 0, "\(mismatches) values differ from OpenSSL's HMAC (seed \(seed))")
    }

    @Test("Codes in lanes equal codes one at a time, for every hash, key length and count around four", arguments: OTPAlgorithm.allCases)
    func codesInLanesMatchSingleCodes(algorithm: OTPAlgorithm) throws {
        for length in [10, 20, 32, 64, 65, 100] {
            let key = PreparedKey(secret: try OTPSecret(bytes: (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }), algorithm: algorithm)
            for start in [UInt64(0), 1_234_567, UInt64.max - 9] {
                for count in 0...9 {
                    let counters = (0..<UInt64(count)).map { start &+ $0 }
                    #expect(
                        key.truncatedValues(counters: counters) == counters.map { key.truncatedValue(counter: $0) },
                        "\(algorithm), \(length)-byte key, \(count) counters from \(start)")
                }
            }
        }
    }

    @Test("Every window from ±0 to ±12 finds each of its codes at its offset and nothing outside", arguments: OTPAlgorithm.allCases)
    func windowsFindEveryCandidate(algorithm: OTPAlgorithm) throws {
        let totp = try TOTP(secret: OTPSecret(bytes: Array(repeating: 0x5A, count: algorithm == .sha512 ? 64 : 32)), algorithm: algorithm, digits: 8)
        let now: Int64 = 2_000_000_000
        let current = try totp.step(at: now)
        for behind in 0...12 {
            for ahead in [0, 1, behind, 12] {
                let window = try VerificationWindow(behind: behind, ahead: ahead)
                for offset in -behind...ahead {
                    let step = UInt64(Int64(current) + Int64(offset))
                    #expect(try totp.verify(totp.code(step: step), at: now, window: window) == TOTPMatch(step: step, offset: offset))
                }
                #expect(try totp.verify(totp.code(step: current + UInt64(ahead) + 1), at: now, window: window) == nil)
            }
        }
    }
}

@Suite("Codes in bulk")
struct BatchTests {
    @Test("Many counters under one key equal one code at a time, for every count around the batch of four", arguments: OTPAlgorithm.allCases)
    func manyCounters(algorithm: OTPAlgorithm) throws {
        let key = PreparedKey(secret: try OTPSecret(bytes: Array("12345678901234567890".utf8)), algorithm: algorithm)
        for count in 0...9 {
            let counters = (0..<UInt64(count)).map { 1_000 + $0 * 7 }
            #expect(key.truncatedValues(counters: counters) == counters.map { key.truncatedValue(counter: $0) }, "\(count) counters")
        }
    }

    @Test("Many keys at one counter equal one code at a time, with the algorithms mixed")
    func manyKeys() throws {
        let algorithms: [OTPAlgorithm] = [.sha1, .sha1, .sha256, .sha1, .sha1, .sha1, .sha1, .sha512, .sha256, .sha256, .sha256, .sha256, .sha1]
        let keys = try algorithms.enumerated().map { index, algorithm in
            PreparedKey(secret: try OTPSecret(bytes: (0..<(16 + index)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ index) }), algorithm: algorithm)
        }
        for prefix in 0...keys.count {
            let chosen = Array(keys.prefix(prefix))
            #expect(PreparedKey.truncatedValues(keys: chosen, counter: 56_789) == chosen.map { $0.truncatedValue(counter: 56_789) }, "\(prefix) keys")
        }
    }

    @Test("RFC 4226's ten HOTP values come out of one batch")
    func rfc4226() throws {
        let key = PreparedKey(secret: try OTPSecret(bytes: Array("12345678901234567890".utf8)), algorithm: .sha1)
        // RFC 4226, appendix D: the truncated decimal values for counters 0...9.
        let expected: [UInt32] = [
            1_284_755_224, 1_094_287_082, 137_359_152, 1_726_969_429, 1_640_338_314, 868_254_676, 1_918_287_922, 82_162_583, 673_399_871, 645_520_489,
        ]
        #expect(key.truncatedValues(counters: 0..<10) == expected)
    }
}
