import Foundation
import OTPCore
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
            "oathtool --totp=\(algorithm.rawValue.lowercased()) -d \(digits) -s \(period)s -N @\(time) \(hex)"
        }
    }

    static let caseCount = 1_200
    static let year2500: Int64 = 16_725_225_600
    static let edgeTimes: [Int64] = [0, 59, 2_147_483_647, 2_147_483_648, 4_294_967_296, year2500]

    static func randomCases() -> [Case] {
        var generator = SystemRandomNumberGenerator()
        return (0..<caseCount).map { index in
            Case(
                secret: (0..<Int.random(in: 10...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) },
                algorithm: OTPAlgorithm.allCases.randomElement(using: &generator)!,
                digits: Int.random(in: 6...8, using: &generator),
                period: [15, 30, 60].randomElement(using: &generator)!,
                time: index < edgeTimes.count * 20 ? edgeTimes[index % edgeTimes.count] : Int64.random(in: 0...year2500, using: &generator)
            )
        }
    }

    @Test("1,200 random secrets, algorithms, digits, periods and times agree with oathtool")
    func randomAgreement() throws {
        let cases = Self.randomCases()
        // One shell runs every oathtool invocation: one process spawn from here instead of 1,200.
        let script = "set -e\n" + cases.map(\.command).joined(separator: "\n") + "\n"
        let output = try Self.runShell(script)
        let codes = output.split(separator: "\n").map(String.init)
        try #require(codes.count == cases.count, "oathtool printed \(codes.count) lines for \(cases.count) cases")
        var mismatches = 0
        for (testCase, expected) in zip(cases, codes) {
            let totp = try TOTP(secret: OTPSecret(bytes: testCase.secret), algorithm: testCase.algorithm, digits: testCase.digits, period: testCase.period)
            let code = try totp.code(at: testCase.time)
            if code != expected {
                mismatches += 1
                Issue.record("\(testCase): OTPKit \(code), oathtool \(expected)")
            }
            #expect(try totp.verify(expected, at: testCase.time, window: .exact) != nil)
        }
        #expect(mismatches == 0)
    }

    static func runShell(_ script: String) throws -> String {
        let which = Process()
        which.executableURL = URL(fileURLWithPath: "/bin/sh")
        which.arguments = ["-c", "command -v oathtool"]
        which.standardOutput = FileHandle.nullDevice
        try which.run()
        which.waitUntilExit()
        try #require(which.terminationStatus == 0, "oathtool is not installed: run `bash Tests/test.sh` (it installs it) or `apt-get install -y oathtool`")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "oathtool failed with status \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }
}
