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
    public typealias Reason = DeliveryFailure

    /// Why the message was not sent.
    public let reason: Reason
    /// Which sender failed (`"twilio"`, `"webhook"`, `"command"`, …), for logs.
    public let sender: String

    /// Creates an error.
    public init(_ reason: Reason, sender: String) {
        self.reason = reason
        self.sender = sender
    }

    public var description: String { reason.description(sender: sender, medium: "SMS") }
}
