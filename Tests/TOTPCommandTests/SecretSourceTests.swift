import Foundation
import Testing

@Suite("Secret sources")
struct SecretSourceTests {
    static let expected = "94287082\n"
    static let options = ["--digits", "8", "--time", "59"]

    @Test("positional argument")
    func positional() throws {
        #expect(try TOTPProcess.run(["code", Seeds.sha1] + Self.options).stdout == Self.expected)
    }

    @Test("- reads standard input, with surrounding whitespace")
    func standardInput() throws {
        let run = try TOTPProcess.run(["code", "-"] + Self.options, input: "  \(Seeds.sha1)\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == Self.expected)
    }

    @Test("--secret-file reads a file")
    func secretFile() throws {
        let directory = try TOTPProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret")
        try (Seeds.sha1.lowercased() + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try TOTPProcess.run(["code", "--secret-file", file.path] + Self.options)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == Self.expected)
    }

    @Test("TOTP_SECRET is used when nothing else is given")
    func environment() throws {
        let run = try TOTPProcess.run(["code"] + Self.options, environment: ["TOTP_SECRET": Seeds.sha1])
        #expect(run.stdout == Self.expected)
    }

    @Test("an explicit secret wins over TOTP_SECRET")
    func explicitWins() throws {
        let run = try TOTPProcess.run(["code", Seeds.sha1] + Self.options, environment: ["TOTP_SECRET": "JBSWY3DPEHPK3PXP"])
        #expect(run.stdout == Self.expected)
    }

    @Test("verify reads the secret the same ways")
    func verifySources() throws {
        let options = ["--digits", "8", "--time", "59"]
        #expect(try TOTPProcess.run(["verify", "94287082", Seeds.sha1] + options).status == 0)
        #expect(try TOTPProcess.run(["verify", "94287082", "-"] + options, input: Seeds.sha1).status == 0)
        #expect(try TOTPProcess.run(["verify", "94287082"] + options, environment: ["TOTP_SECRET": Seeds.sha1]).status == 0)
    }
}
