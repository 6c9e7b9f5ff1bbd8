import Foundation
import OTPTestUtilities
import Testing

/// The runner every test target shares: it must never hang on a child that fills its pipes.
@Suite("Process runner")
struct ProcessRunnerTests {
    static let mebibyte = 1 << 20

    /// The child writes 1 MiB to each output, in either order, before it reads a byte of its
    /// input: a runner that writes the input first, or reads one pipe to its end before the other,
    /// waits for the child while the child waits on a full pipe.
    @Test(
        "1 MiB on stdout and stderr before the child reads 1 MiB of stdin: no deadlock, nothing lost",
        .hangGuard, arguments: [true, false])
    func fullPipes(standardErrorFirst: Bool) async throws {
        let toError = "head -c \(Self.mebibyte) /dev/zero | tr '\\0' e >&2"
        let toOutput = "head -c \(Self.mebibyte) /dev/zero | tr '\\0' o"
        let writes = standardErrorFirst ? [toError, toOutput] : [toOutput, toError]
        let input = [UInt8](repeating: UInt8(ascii: "i"), count: Self.mebibyte)
        let result = try await ProcessRunner.run("/bin/sh", ["-c", (writes + ["wc -c"]).joined(separator: "\n")], input: input)
        #expect(result.termination == .exited(0), "\(result.stderr.suffix(200))")
        #expect(result.standardOutput == [UInt8](repeating: UInt8(ascii: "o"), count: Self.mebibyte) + Array("\(Self.mebibyte)\n".utf8))
        #expect(result.standardError == [UInt8](repeating: UInt8(ascii: "e"), count: Self.mebibyte))
    }

    @Test("an interactive child that floods both outputs before its prompt gets its answer", .hangGuard)
    func conversation() async throws {
        let script = """
            head -c \(Self.mebibyte) /dev/zero | tr '\\0' e >&2
            head -c \(Self.mebibyte) /dev/zero | tr '\\0' o
            printf 'code? '
            read answer
            echo "got $answer"
            head -c \(Self.mebibyte) /dev/zero | tr '\\0' p
            """
        let result = try await ProcessRunner.converse("/bin/sh", ["-c", script]) { session in
            let shown = try await session.waitForOutput(containing: "code? ")
            #expect(shown.hasSuffix("code? "))
            try await session.write("123456\n")
        }
        #expect(result.termination == .exited(0))
        let expected = String(repeating: "o", count: Self.mebibyte) + "code? got 123456\n" + String(repeating: "p", count: Self.mebibyte)
        #expect(result.stdout == expected)
        #expect(result.standardError == [UInt8](repeating: UInt8(ascii: "e"), count: Self.mebibyte))
    }

    @Test("a prompt that never comes fails after the timeout and the child is stopped", .hangGuard)
    func missingPrompt() async throws {
        let error = await #expect(throws: ProcessSession.PromptMissing.self) {
            _ = try await ProcessRunner.converse("/bin/sh", ["-c", "echo waiting; read answer"]) { session in
                try await session.waitForOutput(containing: "code? ", timeout: .milliseconds(300))
            }
        }
        #expect(error?.output == "waiting\n")
    }

    @Test("a conversation can kill its child mid-run, as crash tests do", .hangGuard)
    func killMidRun() async throws {
        let result = try await ProcessRunner.converse("/bin/sh", ["-c", "echo ready; exec sleep 60"]) { session in
            try await session.waitForOutput(containing: "ready\n")
            #expect(await !session.isOutputClosed)
            #expect(session.processIdentifier > 0)
            try session.send(signal: SIGKILL)
        }
        #expect(result.termination == .signaled(SIGKILL))
        #expect(result.stdout == "ready\n")
    }

    @Test("exit statuses and signals are told apart")
    func termination() async throws {
        let exited = try await ProcessRunner.shell("exit 3")
        #expect(exited.termination == .exited(3))
        #expect(exited.status == 3)
        let killed = try await ProcessRunner.shell("kill -TERM $$")
        #expect(killed.termination == .signaled(SIGTERM))
        #expect(killed.status == 128 + SIGTERM)
    }

    @Test("environment entries are added, and removed when nil")
    func environment() async throws {
        let result = try await ProcessRunner.shell(
            #"printf '%s|%s' "$OTPKIT_RUNNER_TEST" "${HOME-unset}""#,
            environment: ["OTPKIT_RUNNER_TEST": "a b", "HOME": nil])
        #expect(result.stdout == "a b|unset")
    }

    @Test("a signal after a delay stops a child that runs until interrupted", .hangGuard)
    func interrupt() async throws {
        let script = "trap 'echo stopped; exit 0' INT; echo started; while :; do sleep 0.05; done"
        let result = try await ProcessRunner.run("/bin/sh", ["-c", script], interruptingAfter: .milliseconds(300))
        #expect(result.termination == .exited(0))
        #expect(result.stdout == "started\nstopped\n")
    }

    @Test("a missing tool fails with the Debian package that provides it")
    func missingTool() {
        let tool = ExternalTool("otpkit-no-such-tool", debianPackage: "otpkit-example-package")
        let error = #expect(throws: ExternalTool.Missing.self) { try tool.path() }
        #expect(
            error?.description
                == "otpkit-no-such-tool is not installed: install the Debian package otpkit-example-package (`bash .ci/install` or `bash Tests/test.sh` does)"
        )
        #expect(throws: Never.self) { try ExternalTool("sh", debianPackage: "dash").path() }
    }

    @Test("a tool named by absolute path is that file, or missing with its package")
    func absoluteTool() throws {
        #expect(try ExternalTool("/bin/sh", debianPackage: "dash").path() == "/bin/sh")
        let error = #expect(throws: ExternalTool.Missing.self) {
            try ExternalTool("/nonexistent/otpkit-tool", debianPackage: "otpkit-example-package").path()
        }
        #expect(error?.tool.debianPackage == "otpkit-example-package")
    }

    @Test("shell quoting survives quotes, spaces and dollars")
    func quoting() async throws {
        let awkward = "it's $HOME and \"x\" \\ y"
        let result = try await ProcessRunner.shell("printf '%s' \(ProcessRunner.shellQuoted(awkward))")
        #expect(result.stdout == awkward)
    }
}
