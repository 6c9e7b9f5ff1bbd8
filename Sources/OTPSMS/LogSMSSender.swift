public import Logging
public import OTPAuthentication
import OTPDelivery

/// Writes each text message to a log instead of sending it: for development and tests only.
///
/// Each message becomes one line at notice level, `SMS to +1******4444: 123456 is your code`,
/// with the number masked and the text in full.
///
/// - Important: This sender logs the code. It is the one place in OTPKit where a code may appear
///   in a log, on purpose, as Firebase's Auth emulator prints the codes it would have sent. Never
///   configure it in production: anyone who reads the log can then pass the second factor.
public struct LogSMSSender: SMSSender {
    private let logger: Logger

    /// Creates a sender that writes to `logger`.
    public init(logger: Logger = Logger(label: "OTPSMS.log")) {
        self.logger = logger
    }

    /// Logs `text` for `phoneNumber`; never fails.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        logger.notice("SMS to \(Redaction.maskedPhoneNumber(phoneNumber)): \(text)")
    }
}
