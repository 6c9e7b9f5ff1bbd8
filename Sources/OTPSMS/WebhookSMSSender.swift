public import AsyncHTTPClient
public import Logging
import NIOHTTP1
public import OTPAuthentication

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
/// Without an `httpClient`, the sender creates one (redirects refused, no connection retries
/// past a refusal) and shuts it down when it is released or at ``shutdown()``. With one, the
/// caller owns that client and shuts it down.
public final class WebhookSMSSender: SMSSender {
    /// Where the messages are POSTed.
    public let url: String
    /// How long one message may take, connection and answer together.
    public let timeout: Duration

    private let headers: HTTPHeaders
    private let transport: HTTPSMSTransport
    private let logger: Logger

    /// Creates a sender.
    ///
    /// - Parameters:
    ///   - url: An https URL; plain http only to this machine's loopback.
    ///   - headers: Sent with every request, such as `[("Authorization", "Bearer …")]`.
    ///   - timeout: How long one message may take; 10 seconds by default.
    ///   - httpClient: A client the caller owns, or nil for one the sender creates and owns.
    ///   - logger: Where sends and failures are logged at debug and warning level, with masked
    ///     numbers and never the message.
    /// - Throws: `SMSSendError` `.misconfigured` for a URL that is not https with a host (or http
    ///   to loopback), a malformed header, or a timeout that is not positive.
    public init(
        url: String,
        headers: [(name: String, value: String)] = [],
        timeout: Duration = .seconds(10),
        httpClient: HTTPClient? = nil,
        logger: Logger = Logger(label: "OTPSMS.webhook")
    ) throws(SMSSendError) {
        func misconfigured(_ detail: String) -> SMSSendError { SMSSendError(.misconfigured(detail), sender: "webhook") }
        guard HTTPSMSTransport.gatewayURL(url) != nil else {
            throw misconfigured("the URL \(url.debugDescription) is not \(HTTPSMSTransport.gatewayURLRule): the messages hold the codes")
        }
        var fields = HTTPHeaders()
        for (name, value) in headers {
            // A line break in a value would let it forge more headers. Scalars, not Characters:
            // "\r\n" is one Character, equal to neither "\r" nor "\n".
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenScalar),
                !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            else { throw misconfigured("the header \(name.debugDescription) has a malformed name or value") }
            fields.add(name: name, value: value)
        }
        fields.replaceOrAdd(name: "Content-Type", value: "application/json")
        guard timeout > .zero else { throw misconfigured("the timeout must be positive") }

        self.url = url
        self.headers = fields
        self.timeout = timeout
        self.logger = logger
        self.transport = HTTPSMSTransport(client: httpClient, timeout: timeout, senderName: "webhook")
    }

    /// Sends `text` to `phoneNumber`.
    /// - Throws: `SMSSendError` when the webhook did not accept the message.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        let body: [UInt8]
        do {
            body = Array(try JSONEncoder().encode(WebhookMessage(to: phoneNumber, text: text)))
        } catch {
            // Two strings always encode; this only keeps the typed throw honest.
            throw SMSSendError(.misconfigured("the message could not be encoded as JSON"), sender: "webhook")
        }

        let masked = Redaction.maskedPhoneNumber(phoneNumber)
        let answer: HTTPSMSTransport.Answer
        do throws(SMSSendError) {
            answer = try await transport.post(url, headers: headers, body: body, message: text)
        } catch {
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        guard answer.isSuccess else {
            let firstLine = String(decoding: answer.body, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            let detail = Redaction.detail(firstLine, withoutMessage: text)
            let error = SMSSendError(.rejected("HTTP \(answer.status)" + (detail.isEmpty ? "" : ": \(detail)")), sender: "webhook")
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        logger.debug("SMS to \(masked) accepted (HTTP \(answer.status))")
    }

    /// A header name's characters (RFC 9110's token).
    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
    }

    /// Shuts down the HTTP client the sender created; does nothing for an injected client. The
    /// sender sends nothing afterwards.
    public func shutdown() async throws {
        try await transport.shutdown()
    }
}

/// The webhook's body, in this key order: `{"to":"+15555550100","text":"…"}`.
private struct WebhookMessage: Encodable {
    let to: String
    let text: String
}
