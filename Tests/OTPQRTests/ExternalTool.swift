import Foundation
import Testing

/// Runs the Debian tools the QR tests check against (zbarimg, rsvg-convert).
enum ExternalTool {
    struct Missing: Error, CustomStringConvertible {
        let tool: String
        let package: String
        var description: String {
            "\(tool) not found: install the Debian package \(package) (bash .ci/install does it)"
        }
    }

    struct Failed: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let standardError: String
        var description: String { "\(command) exited with \(status): \(standardError)" }
    }

    /// The absolute path of `tool`, or a failure naming the package to install.
    static func path(of tool: String, package: String) throws -> String {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(tool: tool, package: package)
    }

    /// Runs `tool` with `arguments` and returns its standard output bytes.
    static func run(_ tool: String, package: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(of: tool, package: package))
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(command: ([tool] + arguments).joined(separator: " "), status: process.terminationStatus,
                         standardError: String(decoding: stderr, as: UTF8.self))
        }
        return Array(stdout)
    }

    /// Decodes the QR code in a PNG file with `zbarimg --raw -q`, returning the raw bytes of the
    /// symbol's data (binary mode, so zbar does not guess a character set).
    static func zbarDecode(pngAt url: URL) throws -> [UInt8] {
        try run("zbarimg", package: "zbar-tools", ["--raw", "-q", "-Sbinary", url.path])
    }

    /// A fresh temporary directory for one test's files.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("otpkit-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
