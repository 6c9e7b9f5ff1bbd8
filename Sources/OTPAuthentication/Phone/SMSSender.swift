/// Delivers the text messages of phone second factors: an SMS gateway's HTTP API, a webhook, a
/// program on the host (a GSM modem's spooler), or the log in development.
///
/// The service calls ``send(_:to:)`` once per code and treats a throw as "not sent": it then
/// discards the verification, so no verification id is usable for a message that never left.
/// Implementations bound how long a call can take (a timeout) rather than hang a sign-in.
public protocol SMSSender: Sendable {
    /// Sends `text` to `phoneNumber` (E.164, such as `+15555550100`).
    /// - Throws: ``SMSSendError`` when the message was not accepted for delivery.
    func send(_ text: String, to phoneNumber: String) async throws(SMSSendError)
}

/// A text message that was not accepted for delivery.
///
/// The description says what failed and never contains the message text, which holds a code.
public struct SMSSendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the message was not sent.
    public enum Reason: Sendable, Hashable {
        /// The gateway or program answered that it refused the message (an HTTP status, an exit
        /// status), with what it said.
        case rejected(String)
        /// No answer within the time allowed, in seconds.
        case timedOut(seconds: Double)
        /// The gateway could not be reached, or the program could not be started.
        case unreachable(String)
        /// The sender's own settings cannot work (a malformed URL, an empty program path, …).
        case misconfigured(String)
    }

    /// Why the message was not sent.
    public let reason: Reason
    /// Which sender failed (`"twilio"`, `"webhook"`, `"command"`, …), for logs.
    public let sender: String

    /// Creates an error.
    public init(_ reason: Reason, sender: String) {
        self.reason = reason
        self.sender = sender
    }

    public var description: String {
        switch reason {
        case .rejected(let detail): "the \(sender) SMS sender refused the message: \(detail)"
        case .timedOut(let seconds): "the \(sender) SMS sender did not answer within \(seconds) seconds"
        case .unreachable(let detail): "the \(sender) SMS sender could not be reached: \(detail)"
        case .misconfigured(let detail): "the \(sender) SMS sender is misconfigured: \(detail)"
        }
    }
}
