import Foundation
import OTPTestUtilities
import Testing

@Suite("Secret sources")
struct SecretSourceTests {
    static let expected = "94287082\n"
    static let options = ["--digits", "8", "--time", "59"]

    @Test("positional argument")
    func positional() async throws {
        #expect(try await TOTPProcess.run(["code", Seeds.sha1] + Self.options).stdout == Self.expected)
    }

    @Test("- reads standard input, with surrounding whitespace")
    func standardInput() async throws {
        let run = try await TOTPProcess.run(["code", "-"] + Self.options, input: "  \(Seeds.sha1)\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == Self.expected)
    }

    @Test("--secret-file reads a file")
    func secretFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("secret")
        try (Seeds.sha1.lowercased() + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try await TOTPProcess.run(["code", "--secret-file", file.path] + Self.options)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == Self.expected)
    }

    @Test("TOTP_SECRET is used when nothing else is given")
    func environment() async throws {
        let run = try await TOTPProcess.run(["code"] + Self.options, environment: ["TOTP_SECRET": Seeds.sha1])
        #expect(run.stdout == Self.expected)
    }

    @Test("an explicit secret wins over TOTP_SECRET")
    func explicitWins() async throws {
        let run = try await TOTPProcess.run(["code", Seeds.sha1] + Self.options, environment: ["TOTP_SECRET": "JBSWY3DPEHPK3PXP"])
        #expect(run.stdout == Self.expected)
    }

    @Test("verify reads the secret the same ways")
    func verifySources() async throws {
        let options = ["--digits", "8", "--time", "59"]
        #expect(try await TOTPProcess.run(["verify", "94287082", Seeds.sha1] + options).status == 0)
        #expect(try await TOTPProcess.run(["verify", "94287082", "-"] + options, input: Seeds.sha1).status == 0)
        #expect(try await TOTPProcess.run(["verify", "94287082"] + options, environment: ["TOTP_SECRET": Seeds.sha1]).status == 0)
    }

    @Test("the option-free forms (handled without ArgumentParser) agree with the parsed forms")
    func fastForms() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("secret").path
        try Seeds.sha1.write(toFile: file, atomically: true, encoding: .utf8)
        let uri = "otpauth://hotp/RFC:4226?secret=\(Seeds.sha1)&counter=5"
        #expect(try await TOTPProcess.run(["code", "--uri", uri]).stdout == "254676\n")
        #expect(try await TOTPProcess.run(["verify", "254676", "--uri", uri]).stdout == "valid: offset 0 (counter 5)\n")
        #expect(try await TOTPProcess.run(["verify", "287922", "--uri", uri]).stdout == "valid: offset +1 (counter 6)\n")
        let wrong = try await TOTPProcess.run(["verify", "000000", "--uri", uri])
        #expect(wrong.status == 1 && wrong.stdout == "invalid code\n" && wrong.stderr == "")
        for _ in 0..<3 {
            let fast = [
                try await TOTPProcess.run(["code", "--secret-file", file]).stdout,
                try await TOTPProcess.run(["code", "-"], input: Seeds.sha1).stdout,
                try await TOTPProcess.run(["code", "--uri", "otpauth://totp/A:b?secret=\(Seeds.sha1)"]).stdout,
            ]
            let parsed = try await TOTPProcess.run(["code", "--secret-file", file, "--period", "30"]).stdout
            // A step boundary may fall between the runs: try again.
            if fast.allSatisfy({ $0 == parsed }) { return }
        }
        Issue.record("option-free and parsed forms printed different codes three times")
    }
}
