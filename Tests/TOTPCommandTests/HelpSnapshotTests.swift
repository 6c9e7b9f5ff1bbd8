import ArgumentParser
import Foundation
import Testing
@testable import TOTPCommand

/// Every command's help text, compared in-process with the files in `Snapshots/`, so that a
/// change to an option, an abstract or the exit-status table shows up in review as a diff.
///
/// To accept a change, regenerate the files and commit them with the change:
/// `OTPKIT_RECORD_SNAPSHOTS=1 swift test --filter HelpSnapshotTests`. Recording is never
/// automatic: a run with the variable set fails, so it cannot pass unnoticed in CI.
@Suite("Help text snapshots")
struct HelpSnapshotTests {
    static let recordVariable = "OTPKIT_RECORD_SNAPSHOTS"
    static let regenerate = "OTPKIT_RECORD_SNAPSHOTS=1 swift test --filter HelpSnapshotTests"
    /// Fixed, so that the text does not depend on the terminal the tests run in.
    static let columns = 100

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Every command under `totp`, as the words that select it (`["uri", "make"]`), root first.
    static let commands: [[String]] = {
        func walk(_ command: any ParsableCommand.Type, _ path: [String]) -> [[String]] {
            [path] + command.configuration.subcommands.flatMap { walk($0, path + [$0._commandName]) }
        }
        return walk(TOTPTool.self, [])
    }()

    static func type(of path: [String]) -> any ParsableCommand.Type {
        path.reduce(TOTPTool.self as any ParsableCommand.Type) { command, name in
            command.configuration.subcommands.first { $0._commandName == name }!
        }
    }

    static func snapshotFile(_ path: [String]) -> URL {
        directory.appendingPathComponent((["totp"] + path).joined(separator: "-") + ".txt")
    }

    static func help(_ path: [String]) -> String {
        TOTPTool.helpMessage(for: type(of: path), columns: columns) + "\n"
    }

    @Test("each command's help matches its snapshot", arguments: commands)
    func matchesSnapshot(_ path: [String]) throws {
        let file = Self.snapshotFile(path)
        let actual = Self.help(path)
        if ProcessInfo.processInfo.environment[Self.recordVariable] == "1" {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("recorded \(file.lastPathComponent); review and commit it, then run again without \(Self.recordVariable)")
            return
        }
        let expected = try #require(
            try? String(contentsOf: file, encoding: .utf8),
            "no snapshot \(file.lastPathComponent): create it with `\(Self.regenerate)`")
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        Issue.record(
            """
            `totp \(path.joined(separator: " ")) --help` differs from \(file.lastPathComponent) at line \(line + 1):
              snapshot: \(line < expectedLines.count ? String(expectedLines[line]).debugDescription : "(end)")
              now:      \(line < actualLines.count ? String(actualLines[line]).debugDescription : "(end)")
            If the change is intended, regenerate with `\(Self.regenerate)` and commit the files.
            """)
    }

    @Test("every snapshot file belongs to a command")
    func noStaleSnapshots() throws {
        let expected = Set(Self.commands.map { Self.snapshotFile($0).lastPathComponent })
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.directory.path))
        #expect(present.subtracting(expected).isEmpty, "no command has these help texts any more: delete them")
    }

    @Test("help text lists the commands, the secret sources and the exit statuses")
    func content() {
        let root = Self.help([])
        for command in ["code", "verify", "new", "qr", "uri", "enroll", "signin", "reseal", "factors", "keygen"] {
            #expect(root.contains("\n  \(command) "), "totp --help does not list \(command)")
        }
        #expect(root.contains("69 totp-enrollment missing"))
        let code = Self.help(["code"])
        #expect(code.contains("--secret-file") && code.contains("TOTP_SECRET"))
        #expect(Self.help(["qr"]).contains("utf8-inverted"))
    }

    @Test("--version and completion scripts come from the command definitions")
    func versionAndCompletions() {
        #expect(TOTPTool.configuration.version == "0.1.0")
        for shell in [CompletionShell.bash, .zsh, .fish] {
            let script = TOTPTool.completionScript(for: shell)
            #expect(script.contains("totp") && script.contains("secret-file"), "\(shell)")
        }
    }
}
