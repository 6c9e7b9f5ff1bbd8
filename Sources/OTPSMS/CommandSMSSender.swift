public import Logging
public import OTPAuthentication
import OTPDelivery

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
    public var executable: String { program.executable }
    /// The program's arguments, in order.
    public let arguments: [Argument]
    /// Variables set for the program (over those passed from this process).
    public var environment: [String: String] { program.environment }
    /// The names of variables the program gets from this process's environment, beside `PATH`
    /// and `LANG` (a gateway's credentials, say), when this process has them.
    public var passedEnvironment: [String] { program.passedEnvironment }
    /// How long the program may run.
    public var timeout: Duration { program.timeout }

    private let program: DeliveryProgram<SMSSendError>
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
        program = try DeliveryProgram(executable: executable, environment: environment, passedEnvironment: passedEnvironment, timeout: timeout)
        guard arguments.contains(.phoneNumber) else {
            throw SMSSendError(
                .misconfigured("the arguments must contain the number ({to}); the message goes to standard input unless they contain {text}"),
                sender: "command")
        }
        self.arguments = arguments
        self.logger = logger
    }

    /// Runs the program for `text` and `phoneNumber` and waits for it to end.
    /// - Throws: `SMSSendError` when the program failed, could not start or ran out of time.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        let masked = Redaction.maskedPhoneNumber(phoneNumber)
        do throws(SMSSendError) {
            try await program.run(
                arguments: arguments.map { $0.resolved(phoneNumber: phoneNumber, text: text) },
                input: arguments.contains(.text) ? [] : Array(text.utf8), secrets: [text])
        } catch {
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        logger.debug("SMS to \(masked) handed to \(executable)")
    }
}
