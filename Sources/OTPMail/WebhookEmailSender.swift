public import Logging
public import OTPAuthentication
internal import OTPDelivery

/// Sends the messages of email actions by POSTing them as JSON to a URL of the operator's: a mail
/// provider's relay of their own, a queue, a transactional-mail service behind a small adapter.
///
/// The body is
/// `{"to":"ada@example.com","subject":"…","text":"…","link":"https://…","kind":"PASSWORD_RESET"}`
/// with `Content-Type: application/json` and any headers configured (an `Authorization: Bearer …`,
/// say), and `"from"` when a sender address is configured. `text` is the whole plain-text body;
/// `link` the action's link alone, for a receiver that renders its own message; `kind` one of
/// `PASSWORD_RESET`, `VERIFY_EMAIL`, `EMAIL_SIGNIN`, `VERIFY_AND_CHANGE_EMAIL`.
///
/// A 2xx answer means accepted; any other status is `.rejected` with the status and the first
/// line of the answer (the link and its code cut out of it). No answer within the timeout is
/// `.timedOut`; a URL that cannot be connected to is `.unreachable`. Header values, the link and
/// the body never appear in an error or a log.
///
/// Each message is one exchange through libcurl (redirects refused, no proxy from the
/// environment), so there is no client to keep or shut down.
public struct WebhookEmailSender: EmailSender {
    /// The sender address sent as `from`, when configured.
    public let from: String?
    /// Where the messages are POSTed.
    public var url: String { webhook.url }
    /// How long one message may take, connection and answer together.
    public var timeout: Duration { webhook.timeout }

    private let webhook: JSONWebhook<EmailSendError>
    private let logger: Logger

    /// Creates a sender.
    ///
    /// - Parameters:
    ///   - url: An https URL; plain http only to this machine's loopback.
    ///   - headers: Sent with every request, such as `[("Authorization", "Bearer …")]`.
    ///   - from: The sender address the receiver should use, or nil to leave it to the receiver.
    ///   - timeout: How long one message may take; 10 seconds by default.
    ///   - logger: Where sends and failures are logged at debug and warning level, with masked
    ///     addresses and never the link.
    /// - Throws: `EmailSendError` `.misconfigured` for a URL that is not https with a host (or
    ///   http to loopback), a malformed header, or a timeout that is not positive.
    public init(
        url: String, headers: [(name: String, value: String)] = [], from: String? = nil, timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "OTPMail.webhook")
    ) throws(EmailSendError) {
        self.webhook = try JSONWebhook(url: url, headers: headers, timeout: timeout, senderName: "webhook")
        self.from = from
        self.logger = logger
    }

    /// Sends `message`.
    /// - Throws: `EmailSendError` when the webhook did not accept the message.
    public func send(_ message: EmailMessage) async throws(EmailSendError) {
        let masked = Redaction.maskedAddress(message.to)
        let body = WebhookMail(
            to: message.to, from: from, subject: message.subject, text: message.body, link: message.link, kind: message.kind.rawValue)
        let status: Int
        do throws(EmailSendError) {
            status = try await webhook.post(body, secrets: MailFormat.secrets(of: message))
        } catch {
            logger.warning("email to \(masked) (\(message.kind.rawValue)) not sent: \(error)")
            throw error
        }
        logger.debug("email to \(masked) (\(message.kind.rawValue)) accepted (HTTP \(status))")
    }
}

/// The webhook's body, in this key order; `from` left out when not configured.
private struct WebhookMail: Encodable {
    let to: String
    let from: String?
    let subject: String
    let text: String
    let link: String
    let kind: String
}
