public import Logging
public import OTPAuthentication
import OTPDelivery

/// Sends text messages by POSTing them as JSON to a URL of the operator's: a gateway of their
/// own, a chat bridge, a provider without a Twilio-compatible API.
///
/// The body is `{"to":"+15555550100","text":"…"}` with `Content-Type: application/json`, plus
/// any headers configured (an `Authorization: Bearer …`, say). A 2xx answer means sent; any other
/// status is `.rejected` with the status and the first line of the answer
/// (the message text and its code cut out of it). No answer within the timeout is
/// `.timedOut`; a URL that cannot be connected to is
/// `.unreachable`. Header values and the message never appear in an error
/// or a log.
///
/// Each message is one exchange through libcurl (redirects refused, no proxy from the
/// environment), so there is no client to keep or shut down.
public struct WebhookSMSSender: SMSSender {
    /// Where the messages are POSTed.
    public var url: String { webhook.url }
    /// How long one message may take, connection and answer together.
    public var timeout: Duration { webhook.timeout }

    private let webhook: JSONWebhook<SMSSendError>
    private let logger: Logger

    /// Creates a sender.
    ///
    /// - Parameters:
    ///   - url: An https URL; plain http only to this machine's loopback.
    ///   - headers: Sent with every request, such as `[("Authorization", "Bearer …")]`.
    ///   - timeout: How long one message may take; 10 seconds by default.
    ///   - logger: Where sends and failures are logged at debug and warning level, with masked
    ///     numbers and never the message.
    /// - Throws: `SMSSendError` `.misconfigured` for a URL that is not https with a host (or http
    ///   to loopback), a malformed header, or a timeout that is not positive.
    public init(
        url: String,
        headers: [(name: String, value: String)] = [],
        timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "OTPSMS.webhook")
    ) throws(SMSSendError) {
        self.webhook = try JSONWebhook(url: url, headers: headers, timeout: timeout, senderName: "webhook")
        self.logger = logger
    }

    /// Sends `text` to `phoneNumber`.
    /// - Throws: `SMSSendError` when the webhook did not accept the message.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        let masked = Redaction.maskedPhoneNumber(phoneNumber)
        let status: Int
        do throws(SMSSendError) {
            status = try await webhook.post(WebhookMessage(to: phoneNumber, text: text), secrets: [text])
        } catch {
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        logger.debug("SMS to \(masked) accepted (HTTP \(status))")
    }
}

/// The webhook's body, in this key order: `{"to":"+15555550100","text":"…"}`.
private struct WebhookMessage: Encodable {
    let to: String
    let text: String
}
