import Foundation
import Testing

/// Runs the built `totp` executable as a user would and captures what it prints.
struct TOTPRun: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "status \(status), stdout \(stdout.debugDescription), stderr \(stderr.debugDescription)" }
}

enum TOTPProcess {
    /// The `totp` binary in the build products directory. `swift test` builds every product of
    /// the package (and the test target depends on `TOTPCommand`), and runs the test bundle from
    /// that same directory, so the binary sits next to the running test executable.
    /// `TOTP_EXECUTABLE` overrides it, for testing an installed binary.
    static let executable: String = {
        if let path = ProcessInfo.processInfo.environment["TOTP_EXECUTABLE"], !path.isEmpty { return path }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On some platforms the test bundle is a directory (`X.xctest/Contents/MacOS/X`).
        while !directory.path.isEmpty, directory.path != "/" {
            let candidate = directory.appendingPathComponent("totp").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
            if directory.lastPathComponent == ".build" { break }
        }
        return testBinary.deletingLastPathComponent().appendingPathComponent("totp").path
    }()

    /// Runs `totp arguments…` with `input` on standard input and `environment` added to (or, for
    /// nil values, removed from) the inherited environment.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String?] = [:]) throws -> TOTPRun {
        try #require(
            FileManager.default.isExecutableFile(atPath: executable),
            "no totp executable at \(executable): run `swift build` (swift test builds it) or set TOTP_EXECUTABLE")
        return try runProgram(executable, arguments, input: input, environment: environment)
    }

    static func runProgram(_ path: String, _ arguments: [String], input: String? = nil, environment: [String: String?] = [:]) throws -> TOTPRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["TOTP_SECRET"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes at once so neither can fill up and block the child.
        let errorData = DataBox()
        let done = DispatchSemaphore(value: 0)
        let errorHandle = stderr.fileHandleForReading
        Thread {
            errorData.data = errorHandle.readDataToEndOfFile()
            done.signal()
        }.start()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return TOTPRun(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.data, as: UTF8.self))
    }

    /// Runs a shell command line, failing the test with `hint` when its tool is missing.
    static func shell(_ script: String, requiring tool: String, hint: String) throws -> TOTPRun {
        let check = try runProgram("/bin/sh", ["-c", "command -v \(tool)"])
        try #require(check.status == 0, "\(tool) is not installed: \(hint)")
        return try runProgram("/bin/sh", ["-c", script])
    }

    /// Runs `totp` under a pseudo-terminal (util-linux `script`), as if typed at a terminal.
    static func runInTerminal(_ arguments: [String], timeoutSeconds: Double? = nil) throws -> TOTPRun {
        let command = ([executable] + arguments).map(quoted).joined(separator: " ")
        let wrapped = timeoutSeconds.map { "timeout -s INT \($0) \(command)" } ?? command
        return try shell(
            "script -qec \(quoted(wrapped)) /dev/null",
            requiring: "script",
            hint: "run `bash .ci/install` or `apt-get install -y bsdutils`")
    }

    static func quoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("totp-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Known secrets (RFC 4226 / RFC 6238 seeds) in Base32.
enum Seeds {
    static let sha1 = base32(Array("12345678901234567890".utf8))
    static let sha256 = base32(Array("12345678901234567890123456789012".utf8))
    static let sha512 = base32(Array("1234567890123456789012345678901234567890123456789012345678901234".utf8))

    /// RFC 4648 Base32 without padding, written here so that the tests do not share OTPKit's encoder.
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var output = "", buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= 0xFF
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return output
    }
}

/// Hands the standard error bytes from the reading thread back; the semaphore orders the accesses.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
