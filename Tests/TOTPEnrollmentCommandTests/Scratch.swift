import Foundation
import OTPTestUtilities
import Testing

/// A directory with a key file and a database for one test, removed afterwards.
final class Scratch {
    let directory: String
    /// What `--db` takes: an SQLite file in the directory, or the `database` given.
    let database: String
    let keyFile: String
    let keyHex: String

    init(database: String? = nil) throws {
        directory = NSTemporaryDirectory() + "totp-enrollment-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        self.database = database ?? directory + "/otpkit.sqlite"
        keyFile = directory + "/otpkit.key"
        keyHex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try (keyHex + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `totp-enrollment` (or `program`) with `input` on standard input (none: at its end).
    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:], program: String = "totp-enrollment")
        async throws -> ProcessOutput
    {
        try await ProcessRunner.run(BuiltProduct.path(program), arguments, input: input.map { Array($0.utf8) }, environment: environment)
    }

    /// Runs `enroll` as a person would: waits for the key, answers `firstAnswer` (when given) and then
    /// the code oathtool computes from the key it was shown.
    func enroll(user: String, email: String, firstAnswer: String? = nil, program: String = "totp-enrollment", subcommand: [String] = ["enroll"])
        async throws -> (status: Int32, stdout: String, stderr: String, key: String)
    {
        var key = ""
        let arguments = subcommand + ["--db", database, "--user", user, "--email", email, "--key-file", keyFile]
        let result = try await ProcessRunner.converse(BuiltProduct.path(program), arguments) { session in
            let shown = try await session.waitForOutput(containing: "Enter the first code")
            let keyLine = try #require(shown.split(separator: "\n").first { $0.contains("Key:") }, "enroll printed no key: \(shown)")
            key = keyLine.replacingOccurrences(of: "Key:", with: "").filter { !$0.isWhitespace }
            if let firstAnswer { try await session.write(firstAnswer + "\n") }
            let code = try await oathtool(base32: key, at: Int64(Date().timeIntervalSince1970))
            try await session.write(code + "\n")
        }
        return (result.status, result.stdout, result.stderr, key)
    }
}

/// The code `oathtool` (OATH Toolkit, not ours) computes for a Base32 key at a Unix time.
func oathtool(base32 key: String, at time: Int64) async throws -> String {
    let run = try await ProcessRunner.run(ExternalTool.oathtool.path(), ["--totp", "-b", "-N", "@\(time)", key])
    try #require(run.status == 0, "oathtool failed: \(run)")
    return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
