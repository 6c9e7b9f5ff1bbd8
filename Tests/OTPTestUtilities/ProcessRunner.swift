import Foundation
import Subprocess
import SystemPackage

/// Runs child processes for the tests: swift-subprocess writes standard input and reads standard
/// output and standard error concurrently, so no child blocks on a full pipe whatever it writes,
/// in whatever order.
public enum ProcessRunner {
    /// More output than any test expects; past it the run fails instead of growing without bound.
    public static let outputLimit = 256 * 1024 * 1024

    /// Runs `executable` (an absolute path) to its end with `input` on standard input (none: the
    /// null device) and returns everything it wrote. `environment` adds variables to the inherited
    /// environment, or removes those whose value is nil.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        input: [UInt8]? = nil,
        environment: [String: String?] = [:],
        workingDirectory: String? = nil
    ) async throws -> ProcessOutput {
        let configuration = Self.configuration(executable, arguments, environment: environment, workingDirectory: workingDirectory)
        let result =
            if let input {
                try await Subprocess.run(
                    configuration, input: .array(input), output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit))
            } else {
                try await Subprocess.run(
                    configuration, input: .none, output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit))
            }
        return ProcessOutput(
            termination: Self.termination(result.terminationStatus),
            standardOutput: result.standardOutput,
            standardError: result.standardError)
    }

    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        input: String,
        environment: [String: String?] = [:],
        workingDirectory: String? = nil
    ) async throws -> ProcessOutput {
        try await run(executable, arguments, input: Array(input.utf8), environment: environment, workingDirectory: workingDirectory)
    }

    /// Runs a shell command line with `/bin/sh -c`.
    public static func shell(_ script: String, input: String? = nil, environment: [String: String?] = [:]) async throws -> ProcessOutput {
        try await run("/bin/sh", ["-c", script], input: input.map { Array($0.utf8) }, environment: environment)
    }

    /// Runs `executable` for programs that run until stopped (`--watch`): interrupts it (SIGINT,
    /// as Control-C would) after `duration` and returns what it wrote until it ended.
    public static func run(
        _ executable: String,
        _ arguments: [String] = [],
        interruptingAfter duration: Duration,
        environment: [String: String?] = [:]
    ) async throws -> ProcessOutput {
        let result = try await Subprocess.run(
            Self.configuration(executable, arguments, environment: environment, workingDirectory: nil),
            input: .none, output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit)
        ) { execution in
            try await Task.sleep(for: duration)
            // The child may have ended on its own; then there is nothing to stop.
            try? execution.send(signal: .interrupt)
        }
        return ProcessOutput(
            termination: Self.termination(result.terminationStatus),
            standardOutput: result.standardOutput,
            standardError: result.standardError)
    }

    /// Runs `executable` interactively: `body` reads its standard output as it comes and answers
    /// on its standard input through the session. Standard error is collected meanwhile, and
    /// standard output to its end after `body` returns (standard input is closed then).
    public static func converse(
        _ executable: String,
        _ arguments: [String] = [],
        environment: [String: String?] = [:],
        body: (ProcessSession) async throws -> Void
    ) async throws -> ProcessOutput {
        let result = try await Subprocess.run(
            Self.configuration(executable, arguments, environment: environment, workingDirectory: nil),
            input: .inputWriter, output: .sequence, error: .bytes(limit: outputLimit)
        ) { execution in
            let collector = OutputCollector()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                // Standard output is drained here all along, not only when `body` waits for it,
                // so the child never stalls on it while `body` writes.
                group.addTask {
                    for try await buffer in execution.standardOutput {
                        let bytes = buffer.withUnsafeBytes { Array($0) }
                        await collector.append(bytes)
                    }
                    await collector.finish()
                }
                let session = ProcessSession(
                    collector: collector, writer: execution.standardInputWriter,
                    sendSignal: { signal in try execution.send(signal: signal) },
                    processIdentifier: execution.processIdentifier.value)
                do {
                    try await body(session)
                } catch {
                    // Killed, the child cannot keep `run` waiting for an answer that never comes.
                    try? execution.send(signal: .kill)
                    throw error
                }
                try await execution.standardInputWriter.finish()
                try await group.waitForAll()
                return await collector.bytes
            }
        }
        return ProcessOutput(
            termination: Self.termination(result.terminationStatus),
            standardOutput: result.closureResult,
            standardError: result.standardError)
    }

    /// Quotes `argument` for a POSIX shell command line.
    public static func shellQuoted(_ argument: String) -> String {
        "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func configuration(
        _ executable: String, _ arguments: [String], environment: [String: String?], workingDirectory: String?
    ) -> Configuration {
        var updates: [Environment.Key: String?] = [:]
        for (name, value) in environment {
            updates[Environment.Key(stringLiteral: name)] = value
        }
        return Configuration(
            executable: .path(FilePath(executable)),
            arguments: Arguments(arguments),
            environment: .inherit.updating(updates),
            workingDirectory: workingDirectory.map { FilePath($0) })
    }

    static func termination(_ status: TerminationStatus) -> ProcessOutput.Termination {
        switch status {
        case .exited(let code): .exited(code)
        case .signaled(let signal): .signaled(signal)
        }
    }
}
