import Glibc
package import OTPAuthentication
import OTPCore
import Subprocess
import SystemPackage

/// A program of the operator's that delivers messages: what the SMS and the mail command senders
/// share. The program is started directly, never through a shell, in a process group of its own
/// and with an environment of its own; its input is written before it starts; it is bounded by a
/// timeout; and what it says on failure is redacted before it reaches an error.
///
/// The environment is `PATH` and `LANG` as this process has them, the variables
/// ``passedEnvironment`` names with this process's values, and ``environment``: so the server's
/// own secrets (`OTPKIT_SEALING_KEY`, `PGPASSWORD`, tokens) never reach the program. It inherits
/// the working directory; its standard output is discarded.
///
/// Exit status 0 means delivered. Any other status is `.rejected` with the status and the first
/// line of standard error. A program that cannot be started is `.unreachable`. A program still
/// running at the timeout is sent SIGTERM, with everything it started, then SIGKILL half a second
/// later, and the send is `.timedOut`.
package struct DeliveryProgram<Failure: DeliveryError>: Sendable {
    /// The absolute path of the program.
    package let executable: String
    /// Variables set for the program (over those passed from this process).
    package let environment: [String: String]
    /// The names of variables the program gets from this process's environment, beside `PATH`
    /// and `LANG`.
    package let passedEnvironment: [String]
    /// How long the program may run.
    package let timeout: Duration

    /// How errors name the sender.
    static var senderName: String { "command" }

    /// How long the program has after SIGTERM before SIGKILL: enough for a spooler to finish
    /// writing the message it was queuing.
    static var terminationGrace: Duration { .milliseconds(500) }
    /// More of standard error than a first line needs; the rest is read and dropped so the program
    /// never blocks on a full pipe.
    static var standardErrorLimit: Int { 4096 }
    /// The most bytes the standard input pipe takes before the program starts: Linux's pipes hold
    /// 64 KiB, and a text message or an email of an action is well under this.
    package static var standardInputLimit: Int { 60 * 1024 }

    /// - Throws: `Failure` (misconfigured) for a relative path, a file that is not executable, or
    ///   a timeout that is not positive.
    package init(executable: String, environment: [String: String], passedEnvironment: [String], timeout: Duration) throws(Failure) {
        func misconfigured(_ detail: String) -> Failure { Failure(.misconfigured(detail), sender: Self.senderName) }
        // A relative path would depend on whichever directory the server was started in.
        guard executable.hasPrefix("/") else { throw misconfigured("the program path \(executable.debugDescription) is not absolute") }
        guard access(executable, X_OK) == 0 else { throw misconfigured("\(executable) is not an executable file") }
        guard timeout > .zero else { throw misconfigured("the timeout must be positive") }
        self.executable = executable
        self.environment = environment
        self.passedEnvironment = passedEnvironment
        self.timeout = timeout
    }

    /// Runs the program with `arguments` and `input` on its standard input, and waits for it to
    /// end.
    ///
    /// - Parameter secrets: What no error may quote: the message, its code, its link.
    /// - Throws: `Failure` when the program failed, could not start or ran out of time.
    package func run(arguments: [String], input: [UInt8], secrets: [String]) async throws(Failure) {
        let configuration = configuration(arguments: arguments)
        let input = try inputPipe(holding: input)
        let executable = executable
        let timeout = timeout
        // Cancelled, the run signals the process group and returns once the program has ended, so
        // no process outlives the send. A program that exited 0 just in time sent.
        let outcome = await Deadline.run(within: timeout) {
            await Self.run(configuration, input: input, executable: executable)
        } keepLate: { result in
            if case .success(.exited(0)) = result.map(\.termination) { true } else { false }
        }
        guard let outcome else { throw Failure(.timedOut(seconds: timeout.seconds), sender: Self.senderName) }
        let run = try outcome.get()
        guard case .exited(0) = run.termination else {
            let status =
                switch run.termination {
                case .exited(let code): "exit status \(code)"
                case .signaled(let signal): "killed by signal \(signal)"
                }
            let detail = Redaction.detail(run.firstErrorLine, without: secrets)
            throw Failure(.rejected(status + (detail.isEmpty ? "" : ": \(detail)")), sender: Self.senderName)
        }
    }

    private func configuration(arguments: [String]) -> Configuration {
        var options = PlatformOptions()
        // A group of its own (process group id = its pid), so that a timeout reaches whatever it
        // started: a grandchild left alive would keep standard error open and the send waiting.
        options.processGroupID = 0
        options.teardownSequence = [.send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: Self.terminationGrace)]
        return Configuration(
            executable: .path(FilePath(executable)),
            arguments: Arguments(arguments),
            environment: .custom(childEnvironment()),
            platformOptions: options)
    }

    /// The program's whole environment: `PATH`, `LANG` and ``passedEnvironment`` as this process
    /// has them, then ``environment``.
    private func childEnvironment() -> [Environment.Key: String] {
        var variables: [Environment.Key: String] = [:]
        for name in ["PATH", "LANG"] + passedEnvironment {
            if let value = getenv(name) { variables[Environment.Key(stringLiteral: name)] = String(cString: value) }
        }
        for (name, value) in environment {
            variables[Environment.Key(stringLiteral: name)] = value
        }
        return variables
    }

    /// How the program ended and the first line it wrote to standard error.
    private struct Run: Sendable {
        enum Termination: Sendable, Equatable {
            case exited(Int32)
            case signaled(Int32)
        }

        let termination: Termination
        let firstErrorLine: String
    }

    /// A pipe's read end holding `bytes` and then end of file: filled and closed before the
    /// program starts, so that a program which exits without reading cannot make the write fail,
    /// nor raise SIGPIPE, whose default action would end this process.
    private func inputPipe(holding bytes: [UInt8]) throws(Failure) -> FileDescriptor {
        guard bytes.count <= Self.standardInputLimit else {
            throw Failure(
                .rejected("the message has \(bytes.count) bytes, more than the \(Self.standardInputLimit) a program is given"),
                sender: Self.senderName)
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw Failure(.unreachable("no pipe for the program's input (errno \(errno))"), sender: Self.senderName)
        }
        let (reading, writing) = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        do {
            _ = try writing.writeAll(bytes)
            try writing.close()
            return reading
        } catch {
            try? writing.close()
            try? reading.close()
            throw Failure(.unreachable("the program's input could not be written (\(error))"), sender: Self.senderName)
        }
    }

    private static func run(_ configuration: Configuration, input: FileDescriptor, executable: String) async -> Result<Run, Failure> {
        do {
            let result = try await Subprocess.run(
                configuration, input: .fileDescriptor(input, closeAfterSpawningProcess: true), output: .discarded, error: .sequence
            ) { execution in
                var kept: [UInt8] = []
                for try await buffer in execution.standardError {
                    let room = standardErrorLimit - kept.count
                    if room > 0 { buffer.withUnsafeBytes { kept += $0.prefix(room) } }
                }
                return kept
            }
            let termination: Run.Termination =
                switch result.terminationStatus {
                case .exited(let code): .exited(code)
                case .signaled(let signal): .signaled(signal)
                }
            return .success(Run(termination: termination, firstErrorLine: Redaction.firstLine(of: result.closureResult)))
        } catch let error as SubprocessError {
            // Its description can quote the arguments, which may hold the message: only the cause.
            let cause = error.underlyingError.map { " (\($0))" } ?? ""
            switch error.code {
            case .executableNotFound: return .failure(Failure(.unreachable("\(executable) not found\(cause)"), sender: Self.senderName))
            case .spawnFailed: return .failure(Failure(.unreachable("\(executable) could not be started\(cause)"), sender: Self.senderName))
            default: return .failure(Failure(.unreachable("running \(executable) failed\(cause)"), sender: Self.senderName))
            }
        } catch {
            // Cancellation, when the timeout stopped the program.
            return .failure(Failure(.timedOut(seconds: 0), sender: Self.senderName))
        }
    }
}
