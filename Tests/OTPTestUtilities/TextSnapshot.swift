public import Foundation
public import Testing

/// Text compared with a committed file, so that a change shows up in review as a diff.
///
/// Recording is an explicit opt-in: with `OTPKIT_RECORD_SNAPSHOTS=1` the files are written and
/// the test still fails, so a recording run cannot pass unnoticed in CI.
public enum TextSnapshot {
    /// The environment variable that records snapshots instead of comparing them.
    public static let recordVariable = "OTPKIT_RECORD_SNAPSHOTS"

    /// Compares `actual` with `file`, recording an issue that names the first differing line and
    /// `regenerate`, the command that writes the files anew.
    public static func check(
        _ actual: String,
        against file: URL,
        what: String,
        regenerate: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if ProcessInfo.processInfo.environment[recordVariable] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record(
                "recorded \(file.lastPathComponent); review and commit it, then run again without \(recordVariable)",
                sourceLocation: sourceLocation)
            return
        }
        let expected = try #require(
            try? String(contentsOf: file, encoding: .utf8),
            "no snapshot \(file.lastPathComponent): create it with `\(regenerate)`",
            sourceLocation: sourceLocation)
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        Issue.record(
            """
            \(what) differs from \(file.lastPathComponent) at line \(line + 1):
              snapshot: \(line < expectedLines.count ? String(expectedLines[line]).debugDescription : "(end)")
              now:      \(line < actualLines.count ? String(actualLines[line]).debugDescription : "(end)")
            If the change is intended, regenerate with `\(regenerate)` and commit the files.
            """,
            sourceLocation: sourceLocation)
    }

    /// The files in `directory` that no name in `expected` accounts for.
    public static func strayFiles(in directory: URL, expected: Set<String>) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)).subtracting(expected)
    }
}
