import Glibc
public import Logging
public import OTPAuthentication
import Subprocess
import SystemPackage

/// Sends text messages by running a program of the operator's, such as `gammu-smsd-inject` to
/// queue them for a GSM modem, or a script around any gateway's command-line client.
///
/// The program is started directly, never through a shell, with the configured ``arguments``:
/// the number is passed as one whole argument, exactly, so nothing in it is ever interpreted. The
/// message, which holds the code, is written to the program's standard input, which is then
/// closed, unless the arguments hold ``Argument/text``: then it is an argument too, which every
/// local user can read in `/proc` while the program runs. For a script reading the message from
/// standard input, and for Gammu's SMS daemon, which takes it only as an argument:
///
/// ```swift
/// let script = try CommandSMSSender(executable: "/usr/local/bin/send-sms", arguments: [.phoneNumber])
/// let gammu = try CommandSMSSender(
///     executable: "/usr/bin/gammu-smsd-inject",
///     arguments: ["TEXT", .phoneNumber, "-unicode", "-text", .text])
/// ```
///
/// Exit status 0 means sent. Any other status is `.rejected` with the
/// status and the first line of the program's standard error (with the message and its code cut
/// out, should the program echo them). A program that cannot be started is
/// `.unreachable`. A program still running at the timeout is sent
/// SIGTERM, with everything it started, then SIGKILL half a second later, and the send is
/// `.timedOut`: the program runs in a process group of its own,
/// which is what the signals go to.
///
/// The program gets a new environment, not this process's: `PATH` and `LANG` as this process has
/// them, the variables ``passedEnvironment`` names with this process's values, and
/// ``environment``; so the server's own secrets (`OTPKIT_SEALING_KEY`, `PGPASSWORD`, tokens)
/// never reach it. It inherits the working directory; its standard output is discarded.
public struct CommandSMSSender: SMSSender {
    /// The absolute path of the program.
    public let executable: String
    /// The program's arguments, in order.
    public let arguments: [Argument]
    /// Variables set for the program (over those passed from this process).
    public let environment: [String: String]
    /// The names of variables the program gets from this process's environment, beside `PATH`
    /// and `LANG` (a gateway's credentials, say), when this process has them.
    public let passedEnvironment: [String]
    /// How long the program may run.
    public let timeout: Duration

    /// How long the program has after SIGTERM before SIGKILL: enough for a spooler to finish
    /// writing the message it was queuing.
    static let terminationGrace: Duration = .milliseconds(500)
    /// More of standard error than a first line needs; the rest is read and dropped so the program
    /// never blocks on a full pipe.
    static let standardErrorLimit = 4096

    private let logger: Logger

    /// Creates a sender.
    ///
    /// - Parameters:
    ///   - executable: The absolute path of an executable file.
    ///   - arguments: The arguments; they must include ``Argument/phoneNumber``. With
    ///     ``Argument/text`` the message is an argument (visible to local users); without it, it
    ///     goes to standard input.
    ///   - environment: Variables set for the program.
    ///   - passedEnvironment: Names of variables passed from this process's environment, beside
    ///     `PATH` and `LANG`.
    ///   - timeout: How long the program may run; 10 seconds by default.
    ///   - logger: Where sends and failures are logged at debug and warning level, with masked
    ///     numbers and never the message.
    /// - Throws: `SMSSendError` `.misconfigured` for a relative path, a file that is not
    ///   executable, arguments without the number, or a timeout that is not positive.
    public init(
        executable: String,
        arguments: [Argument],
        environment: [String: String] = [:],
        passedEnvironment: [String] = [],
        timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "OTPSMS.command")
    ) throws(SMSSendError) {
        func misconfigured(_ detail: String) -> SMSSendError { SMSSendError(.misconfigured(detail), sender: "command") }
        // A relative path would depend on whichever directory the server was started in.
        guard executable.hasPrefix("/") else { throw misconfigured("the program path \(executable.debugDescription) is not absolute") }
        guard access(executable, X_OK) == 0 else { throw misconfigured("\(executable) is not an executable file") }
        guard arguments.contains(.phoneNumber) else {
            throw misconfigured("the arguments must contain the number ({to}); the message goes to standard input unless they contain {text}")
        }
        guard timeout > .zero else { throw misconfigured("the timeout must be positive") }
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.passedEnvironment = passedEnvironment
        self.timeout = timeout
        self.logger = logger
    }

    /// Runs the program for `text` and `phoneNumber` and waits for it to end.
    /// - Throws: `SMSSendError` when the program failed, could not start or ran out of time.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        let masked = Redaction.maskedPhoneNumber(phoneNumber)
        let configuration = configuration(arguments: arguments.map { $0.resolved(phoneNumber: phoneNumber, text: text) })
        let input = try Self.inputPipe(holding: arguments.contains(.text) ? [] : Array(text.utf8))
        let executable = executable
        let timeout = timeout
        let outcome = await withTaskGroup(of: Race.self) { group in
            group.addTask { .finished(await Self.run(configuration, input: input, executable: executable)) }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return .timerCancelled }
                return .timerFired
            }
            let first = await group.next()!
            group.cancelAll()
            if case .finished(let result) = first { return result }
            // Cancelled, the run signals the process group and returns once the program has
            // ended, so no process outlives the send. A program that exited 0 just in time sent.
            for await case .finished(let result) in group {
                if case .success(.exited(0)) = result.map(\.termination) { return result }
            }
            return .failure(SMSSendError(.timedOut(seconds: timeout.seconds), sender: "command"))
        }

        let run: Run
        do {
            run = try outcome.get()
        } catch {
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        guard case .exited(0) = run.termination else {
            let status =
                switch run.termination {
                case .exited(let code): "exit status \(code)"
                case .signaled(let signal): "killed by signal \(signal)"
                }
            let detail = Redaction.detail(run.firstErrorLine, withoutMessage: text)
            let error = SMSSendError(.rejected(status + (detail.isEmpty ? "" : ": \(detail)")), sender: "command")
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        logger.debug("SMS to \(masked) handed to \(executable)")
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
    func childEnvironment() -> [Environment.Key: String] {
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
    struct Run: Sendable {
        enum Termination: Sendable, Equatable {
            case exited(Int32)
            case signaled(Int32)
        }

        let termination: Termination
        let firstErrorLine: String
    }

    private enum Race: Sendable {
        case finished(Result<Run, SMSSendError>)
        case timerFired
        case timerCancelled
    }

    /// The most bytes the standard input pipe takes before the program starts (Linux's pipes hold
    /// 64 KiB; a text message is well under one).
    static let standardInputLimit = 16 * 1024

    /// A pipe's read end holding `bytes` and then end of file: filled and closed before the
    /// program starts, so that a program which exits without reading cannot make the write fail,
    /// nor raise SIGPIPE, whose default action would end this process.
    static func inputPipe(holding bytes: [UInt8]) throws(SMSSendError) -> FileDescriptor {
        guard bytes.count <= standardInputLimit else {
            throw SMSSendError(
                .rejected("the message has \(bytes.count) bytes, more than the \(standardInputLimit) a program is given"), sender: "command")
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SMSSendError(.unreachable("no pipe for the program's input (errno \(errno))"), sender: "command")
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
            throw SMSSendError(.unreachable("the program's input could not be written (\(error))"), sender: "command")
        }
    }

    private static func run(_ configuration: Configuration, input: FileDescriptor, executable: String) async -> Result<Run, SMSSendError> {
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
            let firstLine = result.closureResult.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first ?? []
            return .success(Run(termination: termination, firstErrorLine: String(decoding: firstLine, as: UTF8.self)))
        } catch let error as SubprocessError {
            // Its description can quote the arguments, which hold the message: only the cause.
            let cause = error.underlyingError.map { " (\($0))" } ?? ""
            switch error.code {
            case .executableNotFound: return .failure(SMSSendError(.unreachable("\(executable) not found\(cause)"), sender: "command"))
            case .spawnFailed: return .failure(SMSSendError(.unreachable("\(executable) could not be started\(cause)"), sender: "command"))
            default: return .failure(SMSSendError(.unreachable("running \(executable) failed\(cause)"), sender: "command"))
            }
        } catch {
            // Cancellation, when the timeout stopped the program.
            return .failure(SMSSendError(.timedOut(seconds: 0), sender: "command"))
        }
    }
}
