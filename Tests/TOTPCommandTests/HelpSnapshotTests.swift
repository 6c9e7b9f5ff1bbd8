import ArgumentParser
import Foundation
import OTPTestUtilities
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
        try TextSnapshot.check(
            Self.help(path), against: Self.snapshotFile(path), what: "`totp \(path.joined(separator: " ")) --help`",
            regenerate: Self.regenerate)
    }

    @Test("every snapshot file belongs to a command")
    func noStaleSnapshots() throws {
        let stray = try TextSnapshot.strayFiles(in: Self.directory, expected: Set(Self.commands.map { Self.snapshotFile($0).lastPathComponent }))
        #expect(stray.isEmpty, "no command has these help texts any more: delete them")
    }

    @Test("help text lists the commands, the secret sources and the exit statuses")
    func content() {
        let root = Self.help([])
        for command in [
            "code", "verify", "new", "qr", "uri", "add", "list", "rm", "rename", "unlock", "lock", "enroll", "signin", "recovery-codes",
            "reseal", "factors", "keygen",
        ] {
            #expect(root.contains("\n  \(command) "), "totp --help does not list \(command)")
        }
        #expect(root.contains("69 companion program missing"))
        #expect(root.contains("77 wrong") && root.contains("75 vault busy"))
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
