import Foundation
import OTPTestUtilities
import Testing

/// Output on a terminal, through a pseudo-terminal from util-linux `script`.
@Suite("Terminal output")
struct TerminalTests {
    @Test("on a terminal, code shows the seconds left and a countdown bar")
    func countdown() async throws {
        let run = try await TOTPProcess.runInTerminal(["code", Seeds.sha1, "--digits", "8", "--time", "1111111109"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "07081804  █░░░░░░░░░ 1s\r\n")
    }

    @Test("on a terminal, --next says when each code starts")
    func next() async throws {
        let run = try await TOTPProcess.runInTerminal(["code", Seeds.sha1, "--digits", "8", "--time", "1111111095", "--next", "1"])
        #expect(run.stdout.hasPrefix("07081804  █████░░░░░ 15s\r\n"))
        #expect(run.stdout.hasSuffix("  in 15s\r\n"))
    }

    @Test("--watch redraws on a terminal until interrupted")
    func watchTerminal() async throws {
        let start = Int64(Date().timeIntervalSince1970)
        let run = try await TOTPProcess.runInTerminal(["code", Seeds.sha1, "--watch"], timeoutSeconds: 2.5)
        let end = Int64(Date().timeIntervalSince1970)
        var codes: Set<String> = []
        for step in (start / 30)...(end / 30) {
            codes.insert(String(try await TOTPProcess.run(["code", Seeds.sha1, "--time", "\(step * 30)"]).stdout.dropLast()))
        }
        // Each redraw goes back to the start of the line, clears below, and draws the code, a
        // ten-cell countdown bar and the seconds left.
        #expect(run.stdout.hasPrefix("\r\u{1B}[J"), "\(run)")
        let frames = run.stdout.components(separatedBy: "\r\u{1B}[J").dropFirst()
        #expect(frames.count >= 2, "expected at least two redraws: \(run.stdout.debugDescription)")
        for (index, drawn) in frames.enumerated() {
            // Interrupted, the watch ends its line, which the terminal shows as "\r\n" (one Character).
            let frame = index == frames.count - 1 && drawn.hasSuffix("\r\n") ? String(drawn.dropLast()) : drawn
            let match = try #require(frame.wholeMatch(of: #/([0-9]{6})  [█░]{10} ([0-9]{1,2})s/#), "\(frame.debugDescription)")
            #expect(codes.contains(String(match.1)), "\(match.1) is not the code of \(start)...\(end): \(codes)")
            #expect((1...30).contains(Int(match.2) ?? 0))
        }
    }

    @Test("--watch prints one line per code when not on a terminal")
    func watchPipe() async throws {
        let start = Int64(Date().timeIntervalSince1970)
        let run = try await ProcessRunner.run(
            TOTPProcess.executable(), ["code", Seeds.sha1, "--watch"], interruptingAfter: .milliseconds(1500))
        let end = Int64(Date().timeIntervalSince1970)
        var codes: [String] = []
        for step in (start / 30)...(end / 30) {
            codes.append(String(try await TOTPProcess.run(["code", Seeds.sha1, "--time", "\(step * 30)"]).stdout.dropLast()))
        }
        // One line per step the watch lived through, in order; the steps measured here bracket
        // the child's, so its lines are a run of consecutive codes among them.
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(!lines.isEmpty && lines.count <= codes.count, "\(run), codes \(codes)")
        #expect((0...(codes.count - lines.count)).contains { Array(codes[$0..<($0 + lines.count)]) == lines }, "\(run), codes \(codes)")
    }
}
