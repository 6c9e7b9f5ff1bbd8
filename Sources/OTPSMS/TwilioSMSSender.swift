public import Logging
public import OTPAuthentication
import OTPDelivery
import OTPOutbound

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sends text messages through Twilio's Messages API, or any gateway that speaks it.
///
/// Each message is one `POST {baseURL}/2010-04-01/Accounts/{AccountSid}/Messages.json` with a
/// form body (`To`, `From` or `MessagingServiceSid`, `Body`) and HTTP basic authentication. A 2xx
/// answer means Twilio accepted the message for delivery; any other status is
/// `.rejected` with Twilio's error code and message
/// (`HTTP 400, Twilio error 21211: Invalid 'To' Phone Number`). No answer within the timeout is
/// `.timedOut`; a gateway that cannot be connected to is
/// `.unreachable`. Neither the auth token nor the message ever appears
/// in an error or a log.
///
/// ```swift
/// let sender = try TwilioSMSSender(
///     credentials: .authToken(accountSID: "AC…", authToken: token),
///     origin: .phoneNumber("+15555550100"))
/// try await sender.send("123456 is your Example code.", to: "+15555554444")
/// ```
///
/// Each message is one exchange through libcurl (redirects refused, no proxy from the
/// environment), so there is no client to keep or shut down.
public struct TwilioSMSSender: SMSSender {
    /// Twilio's API host, the default ``baseURL``.
    public static let twilioBaseURL = "https://api.twilio.com"

    /// Who authenticates the requests.
    public let credentials: Credentials
    /// Whom the messages come from.
    public let origin: Origin
    /// The gateway's scheme, host and optional port (and path prefix), without a trailing slash.
    public let baseURL: String
    /// How long one message may take, connection and answer together.
    public let timeout: Duration

    private let transport: HTTPDeliveryTransport<SMSSendError>
    private let messagesURL: String
    private let logger: Logger

    /// Creates a sender.
    ///
    /// - Parameters:
    ///   - credentials: The account SID with its auth token, or an API key.
    ///   - origin: The sending number (or alphanumeric sender id), or a messaging service.
    ///   - baseURL: Twilio's by default; a compatible provider's or a test server's otherwise.
    ///   - timeout: How long one message may take; 10 seconds by default.
    ///   - logger: Where sends and failures are logged at debug and warning level, with masked
    ///     numbers and never the message.
    /// - Throws: `SMSSendError` `.misconfigured` for an unusable base URL, an empty
    ///   credential or origin, or a timeout that is not positive.
    public init(
        credentials: Credentials,
        origin: Origin,
        baseURL: String = TwilioSMSSender.twilioBaseURL,
        timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "OTPSMS.twilio")
    ) throws(SMSSendError) {
        func misconfigured(_ detail: String) -> SMSSendError { SMSSendError(.misconfigured(detail), sender: "twilio") }
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        guard let url = GatewayURL.parse(base), url.query == nil, url.fragment == nil else {
            throw misconfigured(
                "the base URL \(baseURL.debugDescription) is not \(GatewayURL.rule) without a query: the requests carry the auth token"
            )
        }
        // The SID becomes a path segment: anything but letters and digits would change the path.
        guard !credentials.accountSID.isEmpty, credentials.accountSID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw misconfigured("the account SID must be letters and digits (AC…)")
        }
        guard !credentials.username.isEmpty, !credentials.password.isEmpty else {
            throw misconfigured("the credentials have an empty SID, key or secret")
        }
        guard !origin.value.isEmpty else { throw misconfigured("the origin (From or MessagingServiceSid) is empty") }
        guard timeout > .zero else { throw misconfigured("the timeout must be positive") }

        self.credentials = credentials
        self.origin = origin
        self.baseURL = base
        self.timeout = timeout
        self.logger = logger
        self.messagesURL = "\(base)/2010-04-01/Accounts/\(credentials.accountSID)/Messages.json"
        self.transport = HTTPDeliveryTransport(timeout: timeout, senderName: "twilio")
    }

    /// Sends `text` to `phoneNumber`.
    /// - Throws: `SMSSendError` when Twilio did not accept the message.
    public func send(_ text: String, to phoneNumber: String) async throws(SMSSendError) {
        // RFC 7617: user name, colon, password, in UTF-8, Base64.
        let basic = Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
        let headers = [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"), ("Authorization", "Basic \(basic)"),
        ]
        let form = FormEncoding.encode([("To", phoneNumber), (origin.fieldName, origin.value), ("Body", text)])

        let masked = Redaction.maskedPhoneNumber(phoneNumber)
        let answer: HTTPAnswer
        do throws(SMSSendError) {
            answer = try await transport.post(messagesURL, headers: headers, body: Array(form.utf8), secrets: [text])
        } catch {
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        guard answer.isSuccess else {
            let error = SMSSendError(.rejected(Self.rejection(answer, message: text)), sender: "twilio")
            logger.warning("SMS to \(masked) not sent: \(error)")
            throw error
        }
        let sid = (try? JSONDecoder().decode(TwilioMessage.self, from: Data(answer.body)))?.sid
        logger.debug("SMS to \(masked) accepted (HTTP \(answer.status)\(sid.map { ", message \($0)" } ?? ""))")
    }

    /// `HTTP 400, Twilio error 21211: Invalid 'To' Phone Number`, or the status alone when the
    /// body is not Twilio's error object.
    static func rejection(_ answer: HTTPAnswer, message: String) -> String {
        guard let error = try? JSONDecoder().decode(TwilioError.self, from: Data(answer.body)), error.code != nil || error.message != nil else {
            return "HTTP \(answer.status)"
        }
        let code = error.code.map { "Twilio error \($0)" } ?? "Twilio error"
        let detail = error.message.map { ": " + Redaction.detail($0, without: [message]) } ?? ""
        return "HTTP \(answer.status), \(code)\(detail)"
    }
}

/// Twilio's error body: `{"code":21211,"message":"…","more_info":"…","status":400}`.
private struct TwilioError: Decodable {
    let code: Int?
    let message: String?
}

/// The one field of Twilio's message resource that a log line wants.
private struct TwilioMessage: Decodable {
    let sid: String?
}
