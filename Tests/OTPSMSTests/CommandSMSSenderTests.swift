import Foundation
import Glibc
import OTPAuthentication
import OTPSMS
import OTPTestUtilities
import Testing

/// The command sender against real shell scripts in a temporary directory.
@Suite("Command SMS sender")
struct CommandSMSSenderTests {
    static let number = "+15555554444"
    /// What a shell would mangle if one were involved: quotes, expansions, globs, separators, a new
    /// line, a leading dash, a placeholder, non-ASCII.
    static let text = "123456 is your code; 'single' \"double\" $HOME `id` $(touch /tmp/otpsms-pwned) * ? \\n\nline two -n {to} ü 🎉"

    /// Writes `body` as an executable `/bin/sh` script.
    static func script(_ body: String, named name: String = "send-sms", in directory: TemporaryDirectory) throws -> String {
        let path = directory.file(name)
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test("the program gets the number and the message as whole arguments, exactly, and exit 0 is sent")
    func passesArgumentsExactly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("arguments")
        let program = try Self.script(#"printf '%s\0' "$@" > "$ARGUMENTS_FILE""#, in: directory)
        let log = CapturedLog()
        let sender = try CommandSMSSender(
            executable: program, arguments: ["TEXT", .phoneNumber, "-text", .text, "{to}"], environment: ["ARGUMENTS_FILE": output],
            logger: log.logger)
        try await sender.send(Self.text, to: Self.number)

        let received = try Data(contentsOf: URL(fileURLWithPath: output)).split(separator: 0, omittingEmptySubsequences: false).dropLast()
        #expect(received.map { String(decoding: $0, as: UTF8.self) } == ["TEXT", Self.number, "-text", Self.text, "{to}"])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/otpsms-pwned"))
        #expect(log.entries == [.init(level: .debug, message: "SMS to +1******4444 handed to \(program)")])
    }

    @Test("without {text} the message goes to standard input, exactly, and never into the arguments /proc shows")
    func messageOnStandardInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script(#"printf '%s\0' "$@" > "$ARGUMENTS_FILE"; cat > "$INPUT_FILE""#, in: directory)
        let sender = try CommandSMSSender(
            executable: program, arguments: ["TEXT", .phoneNumber],
            environment: ["ARGUMENTS_FILE": directory.file("arguments"), "INPUT_FILE": directory.file("input")])
        try await sender.send(Self.text, to: Self.number)
        let received = try Data(contentsOf: directory.url.appendingPathComponent("arguments")).split(separator: 0).map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(received == ["TEXT", Self.number])
        #expect(try String(contentsOfFile: directory.file("input"), encoding: .utf8) == Self.text)
    }

    @Test("the program's environment is PATH, LANG, the variables named and those given: none of this process's others")
    func environmentIsAnAllowList() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Names of this test's own, so that no other test running meanwhile sees a change.
        let secret = "OTPSMS_TEST_SECRET_\(getpid())"
        let passed = "OTPSMS_TEST_PASSED_\(getpid())"
        setenv(secret, "sealing-key-material", 1)
        setenv(passed, "gateway-token", 1)
        defer {
            unsetenv(secret)
            unsetenv(passed)
        }
        let program = try Self.script(#"/usr/bin/env > "$ENVIRONMENT_FILE""#, in: directory)
        let sender = try CommandSMSSender(
            executable: program, arguments: [.phoneNumber], environment: ["ENVIRONMENT_FILE": directory.file("environment")],
            passedEnvironment: [passed, "OTPSMS_TEST_UNSET_VARIABLE"])
        try await sender.send(Self.text, to: Self.number)
        let lines = try String(contentsOfFile: directory.file("environment"), encoding: .utf8).split(separator: "\n").map(String.init)
        let names = Set(lines.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        #expect(lines.contains("\(passed)=gateway-token"))
        #expect(lines.contains("ENVIRONMENT_FILE=" + directory.file("environment")))
        #expect(lines.contains("PATH=" + String(cString: getenv("PATH"))))
        #expect(!names.contains(secret) && !lines.contains { $0.contains("sealing-key-material") })
        // Only the allowed names, and what the shell itself sets.
        let allowed: Set = ["PATH", "LANG", passed, "ENVIRONMENT_FILE", "PWD", "OLDPWD", "SHLVL", "_"]
        #expect(names.subtracting(allowed).isEmpty, "\(names.subtracting(allowed).sorted())")
    }

    @Test("templates read from a configuration file: {to} and {text} only as whole arguments")
    func templates() {
        let arguments = ["TEXT", "{to}", "-text", "{text}", "--to={to}"].map(CommandSMSSender.Argument.init(template:))
        #expect(arguments == [.literal("TEXT"), .phoneNumber, .literal("-text"), .text, .literal("--to={to}")])
        #expect(arguments.map(\.description) == ["TEXT", "{to}", "-text", "{text}", "--to={to}"])
    }

    @Test("a non-zero exit is rejected with the status and the first line of standard error, without the code")
    func rejected() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script(
            #"printf 'modem not ready, dropped "%s"\nsecond line\n' "$3" >&2; echo 'on standard output'; exit 3"#, in: directory)
        let log = CapturedLog()
        let sender = try CommandSMSSender(executable: program, arguments: ["TEXT", .phoneNumber, .text], logger: log.logger)
        let error = await #expect(throws: SMSSendError.self) { try await sender.send("Your code is 654321.", to: Self.number) }

        #expect(error == SMSSendError(.rejected(#"exit status 3: modem not ready, dropped "[message]""#), sender: "command"))
        #expect(!log.text.contains("654321"))
        #expect(log.entries.map(\.level) == [.warning])
    }

    @Test("a program killed by a signal is rejected with the signal")
    func killedBySignal() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script("kill -KILL $$", in: directory)
        let sender = try CommandSMSSender(executable: program, arguments: [.phoneNumber, .text])
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        #expect(error == SMSSendError(.rejected("killed by signal 9"), sender: "command"))
    }

    @Test(
        "a program still running at the timeout is timed out, and it and its children are gone",
        arguments: [false, true])
    func timesOut(ignoringTerminate: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A child of its own that holds standard error open: only a signal to the whole process
        // group ends it, and with it the pipe the sender reads.
        let program = try Self.script(
            """
            \(ignoringTerminate ? "trap '' TERM" : "")
            sleep 600 &
            echo $! > "$PID_DIRECTORY/child"
            echo $$ > "$PID_DIRECTORY/script"
            wait
            """, in: directory)
        let sender = try CommandSMSSender(
            executable: program, arguments: [.phoneNumber, .text], environment: ["PID_DIRECTORY": directory.path], timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        let elapsed = ContinuousClock.now - start

        #expect(error == SMSSendError(.timedOut(seconds: 0.5), sender: "command"))
        // At least the timeout. The upper bound only shows that the send did not wait for the
        // 10-minute child: a full parallel `swift test` on two cores keeps the cooperative threads
        // busy with CPU-bound tests, and has delayed the timer here by more than 30 seconds.
        #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(300), "took \(elapsed)")
        for name in ["script", "child"] {
            let text = try String(contentsOfFile: directory.file(name), encoding: .utf8)
            let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            try await Self.expectGone(pid, name)
        }
    }

    @Test("a program that is gone by the time of sending is unreachable")
    func missingProgram() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script("exit 0", in: directory)
        let sender = try CommandSMSSender(executable: program, arguments: [.phoneNumber, .text])
        try FileManager.default.removeItem(atPath: program)
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        guard case .unreachable(let detail) = error?.reason else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix(program) && !detail.contains("123456"), "\(detail)")
    }

    @Test("settings that cannot work are refused when the sender is made")
    func misconfigured() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script("exit 0", in: directory)
        let notExecutable = directory.file("plain")
        try "exit 0\n".write(toFile: notExecutable, atomically: true, encoding: .utf8)
        let cases: [(String, [CommandSMSSender.Argument], Duration)] = [
            ("send-sms", [.phoneNumber, .text], .seconds(1)), (notExecutable, [.phoneNumber, .text], .seconds(1)),
            (program, [.text], .seconds(1)), (program, ["{to}", .text], .seconds(1)), (program, [.phoneNumber, .text], .zero),
        ]
        for (executable, arguments, timeout) in cases {
            let error = #expect(throws: SMSSendError.self, "\(executable) \(arguments)") {
                _ = try CommandSMSSender(executable: executable, arguments: arguments, timeout: timeout)
            }
            guard case .misconfigured = error?.reason else {
                Issue.record("expected misconfigured, got \(String(describing: error))")
                continue
            }
        }
    }

    /// Waits briefly for `pid` to be gone: no such process, or a zombie that no longer runs
    /// (the script's orphaned child is reaped by whichever process adopted it, in its own time).
    static func expectGone(_ pid: pid_t, _ name: String) async throws {
        for _ in 0..<250 {
            if !isRunning(pid) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the \(name) (pid \(pid)) is still running")
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.range(of: ") ", options: .backwards)
        else { return false }
        return stat[end.upperBound...].first != "Z"
    }
}
