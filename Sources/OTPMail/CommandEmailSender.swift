internal import Foundation
public import Logging
public import OTPAuthentication
internal import OTPDelivery

/// Sends the messages of email actions by running a program of the operator's that takes a
/// message on its standard input: the system's `sendmail` interface (Postfix's, Exim's, msmtp's
/// or nullmailer's, each queuing and retrying on its own), or a script of any kind.
///
/// The message is written whole to the program's standard input, as RFC 5322 text with LF line
/// ends, as `sendmail` reads it: `Date`, `From`, `To`, `Subject`, `Message-ID` and MIME headers,
/// then the UTF-8 plain-text body with the action's link. The recipient is an argument only where
/// the arguments hold ``Argument/recipient``; `sendmail -t` reads it from `To:` instead. Give
/// sendmail `-i`, so that a line holding a lone dot does not end the message:
///
/// ```swift
/// let sendmail = try CommandEmailSender(
///     executable: "/usr/sbin/sendmail", arguments: ["-i", "--", .recipient], from: "no-reply@example.com")
/// ```
///
/// The program is started directly, never through a shell, with a new environment: `PATH` and
/// `LANG` as this process has them, the variables ``passedEnvironment`` names, and
/// ``environment``, so the server's own secrets never reach it. Exit status 0 means accepted for
/// delivery. Any other status is `.rejected` with the status and the first line of the
/// program's standard error (the link and its code cut out of it); a program that cannot be
/// started is `.unreachable`; one still running at the timeout is stopped, with everything it
/// started, and the send is `.timedOut`.
public struct CommandEmailSender: EmailSender {
    /// The program's arguments, in order.
    public let arguments: [Argument]
    /// The sender address, in `From:`.
    public let from: String
    /// How `From:` names the sender; `nil` for the address alone.
    public let fromName: String?
    /// The absolute path of the program.
    public var executable: String { program.executable }
    /// Variables set for the program (over those passed from this process).
    public var environment: [String: String] { program.environment }
    /// The names of variables the program gets from this process's environment, beside `PATH`
    /// and `LANG`.
    public var passedEnvironment: [String] { program.passedEnvironment }
    /// How long the program may run.
    public var timeout: Duration { program.timeout }

    private let program: DeliveryProgram<EmailSendError>
    private let logger: Logger

    /// Creates a sender.
    ///
    /// - Parameters:
    ///   - executable: The absolute path of an executable file.
    ///   - arguments: The arguments; ``Argument/recipient`` where the recipient's address goes.
    ///   - from: The sender address, such as `no-reply@example.com`.
    ///   - fromName: How `From:` names the sender, such as the app's name.
    ///   - environment: Variables set for the program.
    ///   - passedEnvironment: Names of variables passed from this process's environment, beside
    ///     `PATH` and `LANG`.
    ///   - timeout: How long the program may run; 30 seconds by default.
    ///   - logger: Where sends and failures are logged at debug and warning level, with masked
    ///     addresses and never the link.
    /// - Throws: `EmailSendError` `.misconfigured` for a relative path, a file that is not
    ///   executable, a sender address that is not one address, or a timeout that is not positive.
    public init(
        executable: String, arguments: [Argument], from: String, fromName: String? = nil, environment: [String: String] = [:],
        passedEnvironment: [String] = [], timeout: Duration = .seconds(30), logger: Logger = Logger(label: "OTPMail.command")
    ) throws(EmailSendError) {
        program = try DeliveryProgram(executable: executable, environment: environment, passedEnvironment: passedEnvironment, timeout: timeout)
        guard MailFormat.isOneRecipient(from) else {
            throw EmailSendError(.misconfigured("the sender address must be one address, such as no-reply@example.com"), sender: "command")
        }
        self.arguments = arguments
        self.from = from
        self.fromName = fromName
        self.logger = logger
    }

    /// Runs the program for `message` and waits for it to end.
    /// - Throws: `EmailSendError` when the program failed, could not start or ran out of time, or
    ///   when the recipient is not one address (which could otherwise be read as an option).
    public func send(_ message: EmailMessage) async throws(EmailSendError) {
        let masked = Redaction.maskedAddress(message.to)
        guard MailFormat.isOneRecipient(message.to) else {
            throw EmailSendError(.rejected("the recipient is not one address"), sender: "command")
        }
        let input = MailFormat.bytes(message, from: from, fromName: fromName, date: Date(), messageID: UUID().uuidString, lineEnding: .lf)
        do throws(EmailSendError) {
            try await program.run(
                arguments: arguments.map { $0.resolved(recipient: message.to) }, input: input, secrets: MailFormat.secrets(of: message))
        } catch {
            logger.warning("email to \(masked) (\(message.kind.rawValue)) not sent: \(error)")
            throw error
        }
        logger.debug("email to \(masked) (\(message.kind.rawValue)) handed to \(executable)")
    }
}
