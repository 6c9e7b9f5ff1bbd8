import Foundation
import Testing

struct CommandResult {
    let status: Int32
    let output: String
    let errors: String
}

/// A directory with a key file and a database path for one test, removed afterwards.
final class Scratch {
    let directory: String
    let database: String
    let keyFile: String
    let keyHex: String

    init() throws {
        directory = NSTemporaryDirectory() + "totp-enrollment-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        database = directory + "/otpkit.sqlite"
        keyFile = directory + "/otpkit.key"
        keyHex = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        try (keyHex + "\n").write(toFile: keyFile, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func executable(_ name: String) throws -> String {
        let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let path = URL(fileURLWithPath: tests).deletingLastPathComponent().appendingPathComponent(name).path
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(path) is missing: run `swift build` first (Tests/test.sh does)")
        return path
    }

    /// Runs `totp-enrollment` with no input (standard input at its end).
    func run(_ arguments: [String], environment: [String: String] = [:], program: String = "totp-enrollment") throws -> CommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executable(program))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        let output = directory + "/run.out", errors = directory + "/run.err"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            output: try String(contentsOfFile: output, encoding: .utf8),
            errors: try String(contentsOfFile: errors, encoding: .utf8)
        )
    }

    /// Runs `enroll` as a person would: waits for the key, answers `firstAnswer` (when given) and then
    /// the code oathtool computes from the key it was shown.
    func enroll(user: String, email: String, firstAnswer: String? = nil, program: String = "totp-enrollment", subcommand: [String] = ["enroll"]) throws -> (status: Int32, output: String, errors: String, key: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executable(program))
        process.arguments = subcommand + ["--db", database, "--user", user, "--email", email, "--key-file", keyFile]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var shown = Data()
        let deadline = Date().addingTimeInterval(60)
        while !(String(decoding: shown, as: UTF8.self).contains("Enter the first code")) {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty || Date() < deadline, "enroll printed no key: \(String(decoding: shown, as: UTF8.self))")
            if chunk.isEmpty { break }
            shown.append(chunk)
        }
        let text = String(decoding: shown, as: UTF8.self)
        let keyLine = try #require(text.split(separator: "\n").first { $0.contains("Key:") })
        let key = keyLine.replacingOccurrences(of: "Key:", with: "").filter { !$0.isWhitespace }
        if let firstAnswer { input.fileHandleForWriting.write(Data((firstAnswer + "\n").utf8)) }
        let code = try oathtool(base32: key, at: Int64(Date().timeIntervalSince1970))
        input.fileHandleForWriting.write(Data((code + "\n").utf8))
        try input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text + String(decoding: rest, as: UTF8.self), errorText, key)
    }
}

/// The code `oathtool` (OATH Toolkit, not ours) computes for a Base32 key at a Unix time.
func oathtool(base32 key: String, at time: Int64) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["oathtool", "--totp", "-b", "-N", "@\(time)", key]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "oathtool failed or is missing: run `bash Tests/test.sh` (it installs it) or `apt-get install -y oathtool`")
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
