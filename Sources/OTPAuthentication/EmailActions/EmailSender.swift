/// Delivers the messages of email actions: an SMTP server, a program on the host, a webhook, or
/// the log in development.
///
/// The service calls ``send(_:)`` once per message and treats a throw as "not sent": it then
/// deletes the action's code, so no code is usable for a message that never left, and answers the
/// request with an error. Implementations bound how long a call can take rather than hang.
public protocol EmailSender: Sendable {
    /// Sends `message`.
    /// - Throws: ``EmailSendError`` when the message was not accepted for delivery.
    func send(_ message: EmailMessage) async throws(EmailSendError)
}

/// A message of an email action: one recipient, a subject, a plain-text body holding the link.
public struct EmailMessage: Sendable, Hashable {
    /// The recipient's address.
    public var to: String
    /// The subject line.
    public var subject: String
    /// The plain-text body, with the action's link.
    public var body: String
    /// The action's link alone (it is also in ``body``), for senders that pass it on by itself.
    public var link: String
    /// What the link does.
    public var kind: EmailActionKind

    /// Creates a message.
    public init(to: String, subject: String, body: String, link: String, kind: EmailActionKind) {
        self.to = to
        self.subject = subject
        self.body = body
        self.link = link
        self.kind = kind
    }
}

/// A message that was not accepted for delivery.
///
/// The description says what failed and never contains the message, whose link holds a code.
public struct EmailSendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the message was not sent.
    public typealias Reason = DeliveryFailure

    /// Why the message was not sent.
    public let reason: Reason
    /// Which sender failed (`"smtp"`, `"command"`, …), for logs.
    public let sender: String

    /// Creates an error.
    public init(_ reason: Reason, sender: String) {
        self.reason = reason
        self.sender = sender
    }

    public var description: String { reason.description(sender: sender, medium: "mail") }
}
