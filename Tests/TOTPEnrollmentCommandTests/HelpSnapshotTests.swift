import ArgumentParser
import Foundation
import OTPTestUtilities
import Testing
@testable import TOTPEnrollmentCommand

/// `totp-enrollment`'s help texts (what `totp enroll --help` and the other forwarded commands
/// print), compared in-process with the files in `Snapshots/`.
///
/// To accept a change: `OTPKIT_RECORD_SNAPSHOTS=1 swift test --filter TOTPEnrollmentCommandTests.HelpSnapshotTests`.
@Suite("totp-enrollment help text snapshots")
struct HelpSnapshotTests {
    static let regenerate = "OTPKIT_RECORD_SNAPSHOTS=1 swift test --filter TOTPEnrollmentCommandTests.HelpSnapshotTests"
    /// Fixed, so that the text does not depend on the terminal the tests run in.
    static let columns = 100

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Every command by its path, nested ones (`account create`) included.
    static let commands: [[String]] = [[]] + paths(EnrollmentTool.configuration.subcommands)

    static func paths(_ commands: [any ParsableCommand.Type], under parent: [String] = []) -> [[String]] {
        commands.flatMap { command in
            let path = parent + [command._commandName]
            return [path] + paths(command.configuration.subcommands, under: path)
        }
    }

    static func snapshotFile(_ path: [String]) -> URL {
        directory.appendingPathComponent((["totp-enrollment"] + path).joined(separator: "-") + ".txt")
    }

    static func help(_ path: [String]) -> String {
        var command: any ParsableCommand.Type = EnrollmentTool.self
        for name in path {
            command = command.configuration.subcommands.first { $0._commandName == name } ?? command
        }
        return EnrollmentTool.helpMessage(for: command, columns: columns) + "\n"
    }

    @Test("each command's help matches its snapshot", arguments: commands)
    func matchesSnapshot(_ path: [String]) throws {
        try TextSnapshot.check(
            Self.help(path), against: Self.snapshotFile(path), what: "`totp-enrollment \(path.joined(separator: " ")) --help`",
            regenerate: Self.regenerate)
    }

    @Test("every snapshot file belongs to a command")
    func noStaleSnapshots() throws {
        let stray = try TextSnapshot.strayFiles(in: Self.directory, expected: Set(Self.commands.map { Self.snapshotFile($0).lastPathComponent }))
        #expect(stray.isEmpty, "no command has these help texts any more: delete them")
    }
}
