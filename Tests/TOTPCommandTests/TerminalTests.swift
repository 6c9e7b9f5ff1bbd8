import Foundation
import Testing

/// Output on a terminal, through a pseudo-terminal from util-linux `script`.
@Suite("Terminal output")
struct TerminalTests {
    @Test("on a terminal, code shows the seconds left and a countdown bar")
    func countdown() throws {
        let run = try TOTPProcess.runInTerminal(["code", Seeds.sha1, "--digits", "8", "--time", "1111111109"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "07081804  █░░░░░░░░░ 1s\r\n")
    }

    @Test("on a terminal, --next says when each code starts")
    func next() throws {
        let run = try TOTPProcess.runInTerminal(["code", Seeds.sha1, "--digits", "8", "--time", "1111111095", "--next", "1"])
        #expect(run.stdout.hasPrefix("07081804  █████░░░░░ 15s\r\n"))
        #expect(run.stdout.hasSuffix("  in 15s\r\n"))
    }

    @Test("--watch redraws on a terminal until interrupted")
    func watchTerminal() throws {
        let run = try TOTPProcess.runInTerminal(["code", Seeds.sha1, "--watch"], timeoutSeconds: 2.5)
        let code = try TOTPProcess.run(["code", Seeds.sha1]).stdout.dropLast()
        #expect(run.stdout.contains("\u{1B}[J"))
        #expect(run.stdout.contains("s"))
        #expect(run.stdout.components(separatedBy: "\u{1B}[J").count >= 3, "expected at least two redraws: \(run.stdout.debugDescription)")
        #expect(run.stdout.contains(String(code)) || run.stdout.contains("█"))
    }

    @Test("--watch prints one line per code when not on a terminal")
    func watchPipe() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TOTPProcess.executable)
        process.arguments = ["code", Seeds.sha1, "--watch"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        process.interrupt()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect((1...2).contains(lines.count), "\(text.debugDescription)")
        #expect(lines.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
    }
}
