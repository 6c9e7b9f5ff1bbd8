import Foundation
import OTPCore
import OTPTestUtilities
import Testing

/// Compares OTPKit with oathtool (OATH Toolkit), an implementation nobody here wrote.
@Suite("Cross-check with oathtool")
struct OathtoolCrossCheckTests {
    struct Case: CustomStringConvertible {
        let secret: [UInt8]
        let algorithm: OTPAlgorithm
        let digits: Int
        let period: Int64
        let time: Int64

        var hex: String { secret.map { String(format: "%02x", $0) }.joined() }
        var description: String { "\(algorithm.rawValue) digits \(digits) period \(period) time \(time) key \(hex)" }
        var command: String {
            "oathtool --totp=\(ExternalTool.oathtoolName(of: algorithm) ?? "") -d \(digits) -s \(period)s -N @\(time) \(hex)"
        }
    }

    static let caseCount = 1_200
    static let year2500: Int64 = 16_725_225_600
    static let edgeTimes: [Int64] = [0, 59, 2_147_483_647, 2_147_483_648, 4_294_967_296, year2500]

    static func randomCases() -> [Case] {
        var generator = SystemRandomNumberGenerator()
        return (0..<caseCount).map { index in
            Case(
                // Up to 160 bytes: past the 64-byte block of SHA-1 and SHA-256 and the 128-byte block
                // of SHA-512, where HMAC hashes the key first.
                secret: (0..<Int.random(in: 10...160, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) },
                algorithm: ExternalTool.oathtoolAlgorithms.randomElement(using: &generator)!,
                digits: Int.random(in: 6...8, using: &generator),
                period: [15, 30, 60].randomElement(using: &generator)!,
                time: index < edgeTimes.count * 20 ? edgeTimes[index % edgeTimes.count] : Int64.random(in: 0...year2500, using: &generator)
            )
        }
    }

    @Test("1,200 random secrets (10 to 160 bytes), algorithms, digits, periods and times agree with oathtool")
    func randomAgreement() async throws {
        let cases = Self.randomCases()
        // One shell runs every oathtool invocation: one process spawn from here instead of 1,200.
        let script = "set -e\n" + cases.map(\.command).joined(separator: "\n") + "\n"
        // The script finds oathtool on PATH; a missing one fails here, naming its package.
        _ = try ExternalTool.oathtool.path()
        // The script goes to the shell on standard input: as an argument it would pass the kernel's
        // 128 KiB limit for one argument.
        let run = try await ProcessRunner.run("/bin/sh", input: script)
        try #require(run.status == 0, "oathtool failed: \(run)")
        let output = run.stdout
        let codes = output.split(separator: "\n").map(String.init)
        try #require(codes.count == cases.count, "oathtool printed \(codes.count) lines for \(cases.count) cases")
        var mismatches = 0
        for (testCase, expected) in zip(cases, codes) {
            let totp = try TOTP(
                secret: OTPSecret(bytes: testCase.secret), algorithm: testCase.algorithm, digits: testCase.digits, period: testCase.period)
            let code = try totp.code(at: testCase.time)
            if code != expected {
                mismatches += 1
                Issue.record("\(testCase): OTPKit \(code), oathtool \(expected)")
            }
            #expect(try totp.verify(expected, at: testCase.time, window: .exact) != nil)
        }
        #expect(mismatches == 0)
    }
}
