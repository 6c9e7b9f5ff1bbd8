import Foundation
import OTPTestUtilities
import Testing

/// `totp code` against oathtool (OATH Toolkit), an implementation nobody here wrote.
@Suite("totp code cross-checked with oathtool")
struct OathtoolCrossCheckTests {
    struct Case {
        let secret: [UInt8]
        let algorithm: String
        let digits: Int
        let period: Int
        let time: Int64

        var hex: String { secret.map { String(format: "%02x", $0) }.joined() }
        var base32: String { Seeds.base32(secret) }
    }

    /// Enough for every algorithm, length and period through the command's options and output;
    /// the codes themselves are checked against oathtool 1,200 times in process (OTPCoreTests),
    /// where each case costs no process of ours.
    static let caseCount = 48

    @Test("48 random secrets, algorithms, digits, periods and times agree with oathtool")
    func randomAgreement() async throws {
        var generator = SystemRandomNumberGenerator()
        let cases = (0..<Self.caseCount).map { _ in
            Case(
                secret: (0..<Int.random(in: 10...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) },
                algorithm: ExternalTool.oathtoolAlgorithms.compactMap(ExternalTool.oathtoolName).randomElement(using: &generator)!,
                digits: Int.random(in: 6...8, using: &generator),
                period: [15, 30, 60].randomElement(using: &generator)!,
                time: Int64.random(in: 0...16_725_225_600, using: &generator))
        }
        let oathScript =
            "set -e\n"
            + cases.map {
                "oathtool --totp=\($0.algorithm) -d \($0.digits) -s \($0.period)s -N @\($0.time) \($0.hex)"
            }.joined(separator: "\n")
        // The scripts find oathtool on PATH; a missing one fails here, naming its package.
        _ = try ExternalTool.oathtool.path()
        let oath = try await ProcessRunner.run("/bin/sh", input: oathScript)
        try #require(oath.status == 0, "oathtool failed: \(oath.stderr)")
        let totp = try ProcessRunner.shellQuoted(TOTPProcess.executable())
        let ourScript =
            "set -e\n"
            + cases.map {
                "\(totp) code \($0.base32) --algorithm \($0.algorithm) --digits \($0.digits) --period \($0.period) --time \($0.time)"
            }.joined(separator: "\n")
        let ours = try await ProcessRunner.run("/bin/sh", input: ourScript, environment: ["TOTP_SECRET": nil])
        try #require(ours.status == 0, "totp failed: \(ours.stderr)")
        let expected = oath.stdout.split(separator: "\n")
        let actual = ours.stdout.split(separator: "\n")
        try #require(expected.count == cases.count && actual.count == cases.count)
        for (index, testCase) in cases.enumerated() where expected[index] != actual[index] {
            Issue.record(
                "\(testCase.algorithm) digits \(testCase.digits) period \(testCase.period) time \(testCase.time) key \(testCase.hex): totp \(actual[index]), oathtool \(expected[index])"
            )
        }
    }

    @Test("HOTP codes agree with oathtool --hotp")
    func hotpAgreement() async throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let secret = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let testCase = Case(secret: secret, algorithm: "sha1", digits: 6, period: 30, time: 0)
            let counter = UInt64.random(in: 0...UInt64(UInt32.max), using: &generator)
            let oath = try await ProcessRunner.run(ExternalTool.oathtool.path(), ["--hotp", "-c", "\(counter)", testCase.hex])
            try #require(oath.status == 0, "oathtool failed: \(oath)")
            let ours = try await TOTPProcess.run(["code", testCase.base32, "--hotp", "--counter", "\(counter)"])
            #expect(ours.stdout == oath.stdout, "counter \(counter) key \(testCase.hex)")
        }
    }
}
