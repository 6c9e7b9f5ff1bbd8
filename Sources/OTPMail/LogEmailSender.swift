public import Logging
public import OTPAuthentication

/// Writes each message's link to a log instead of sending it: for development only.
///
/// - Important: The link holds the action's code: anyone who reads the log can reset the password
///   or sign in. As Firebase's Auth emulator prints the links it would have mailed, this sender is
///   for a developer's own machine; never configure it in production.
public struct LogEmailSender: EmailSender {
    private let logger: Logger

    /// Creates a sender that writes to `logger`.
    public init(logger: Logger = Logger(label: "OTPMail.log")) {
        self.logger = logger
    }

    /// Logs the message's kind, recipient and link; never fails.
    public func send(_ message: EmailMessage) async throws(EmailSendError) {
        logger.notice("email to \(message.to) (\(message.kind.rawValue)): \(message.link)")
    }
}
