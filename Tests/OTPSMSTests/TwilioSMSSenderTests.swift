import OTPTestUtilities
import Foundation
import NIOHTTP1
import OTPAuthentication
import OTPLoopbackHTTP
import OTPSMS
import Testing

/// The Twilio sender against a real HTTP server on loopback: the exact request, and each answer
/// a gateway can give.
@Suite("Twilio SMS sender")
struct TwilioSMSSenderTests {
    static let accountSID = "AC0123456789abcdef0123456789abcdef"
    static let authToken = "auth-token-never-shown"
    static let number = "+15555554444"
    /// Everything a form encoder can get wrong: spaces, `+`, `&`, `=`, `%`, quotes, a new line, non-ASCII.
    static let text = "123456 is your code for Ex&mple=1 +50% \"ok\"\nüñ 🎉"

    static func sender(_ server: LoopbackHTTPServer, timeout: Duration = .seconds(5), log: CapturedLog = CapturedLog()) throws -> TwilioSMSSender {
        try TwilioSMSSender(
            credentials: .authToken(accountSID: accountSID, authToken: authToken), origin: .phoneNumber("+15555550100"),
            baseURL: server.baseURL, timeout: timeout, logger: log.logger)
    }

    @Test("a 201 is sent: one form POST to the account's Messages.json with basic authentication")
    func sends() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .created, body: #"{"sid":"SM123","status":"queued"}"#))
        let log = CapturedLog()
        let sender = try Self.sender(server, log: log)
        try await sender.send(Self.text, to: Self.number)
        try await server.stop()

        let request = try #require(server.requests.only)
        #expect(request.method == .POST)
        #expect(request.uri == "/2010-04-01/Accounts/\(Self.accountSID)/Messages.json")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        let credentials = Data("\(Self.accountSID):\(Self.authToken)".utf8).base64EncodedString()
        #expect(request.header("Authorization") == "Basic \(credentials)")
        #expect(FormFields(request.bodyText) == FormFields([("To", Self.number), ("From", "+15555550100"), ("Body", Self.text)]))
        // The plus of an E.164 number must not arrive as a space.
        #expect(request.bodyText.hasPrefix("To=%2B15555554444&"))
        #expect(log.entries.contains(.init(level: .debug, message: "SMS to +1******4444 accepted (HTTP 201, message SM123)")))
        #expect(!log.text.contains("123456") && !log.text.contains(Self.authToken))
    }

    @Test("an API key authenticates as the key for the account, and a messaging service replaces From")
    func apiKeyAndMessagingService() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .created, body: "{}"))
        let sender = try TwilioSMSSender(
            credentials: .apiKey(accountSID: Self.accountSID, keySID: "SK0011", secret: "key-secret"),
            origin: .messagingService("MG0022"), baseURL: server.baseURL + "/", timeout: .seconds(5))
        try await sender.send("hello", to: Self.number)
        try await server.stop()

        let request = try #require(server.requests.only)
        #expect(request.uri == "/2010-04-01/Accounts/\(Self.accountSID)/Messages.json")
        #expect(request.header("Authorization") == "Basic \(Data("SK0011:key-secret".utf8).base64EncodedString())")
        #expect(FormFields(request.bodyText) == FormFields([("To", Self.number), ("MessagingServiceSid", "MG0022"), ("Body", "hello")]))
        #expect(!"\(sender.credentials)".contains("key-secret"))
    }

    @Test("a 400 is rejected with Twilio's error code and message, never the token or the text")
    func rejectedWithTwilioError() async throws {
        let body = #"{"code":21211,"message":"Invalid 'To' Phone Number","more_info":"https://www.twilio.com/docs/errors/21211","status":400}"#
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .badRequest, body: body))
        let log = CapturedLog()
        let sender = try Self.sender(server, log: log)
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        try await server.stop()

        #expect(error == SMSSendError(.rejected("HTTP 400, Twilio error 21211: Invalid 'To' Phone Number"), sender: "twilio"))
        let shown = "\(error.map(String.init(describing:)) ?? "")\n\(log.text)"
        #expect(!shown.contains(Self.authToken) && !shown.contains("123456"))
        #expect(log.entries.contains { $0.level == .warning && $0.message.hasPrefix("SMS to +1******4444 not sent: ") })
    }

    @Test("a 500 without Twilio's error object is rejected with the status")
    func rejectedWithServerError() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .internalServerError, body: "oops", contentType: "text/plain"))
        let sender = try Self.sender(server)
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        try await server.stop()
        #expect(error == SMSSendError(.rejected("HTTP 500"), sender: "twilio"))
    }

    @Test("a gateway that answers after the timeout is timed out, at the timeout")
    func timesOut() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .created, body: "{}", delay: .seconds(60)))
        let sender = try Self.sender(server, timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        let elapsed = ContinuousClock.now - start
        try await server.stop()

        #expect(error == SMSSendError(.timedOut(seconds: 0.5), sender: "twilio"))
        #expect(server.requests.count == 1)
        // Generous: a full parallel `swift test` on 2 cores can delay any task by seconds. What the
        // bound shows is that the send did not wait for the gateway's 60-second delay.
        #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test("a closed port is unreachable, at once")
    func unreachable() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        let sender = try TwilioSMSSender(
            credentials: .authToken(accountSID: Self.accountSID, authToken: Self.authToken), origin: .phoneNumber("+15555550100"),
            baseURL: "http://127.0.0.1:\(port)", timeout: .seconds(60), logger: CapturedLog().logger)
        let start = ContinuousClock.now
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        let elapsed = ContinuousClock.now - start

        guard case .unreachable(let detail) = error?.reason else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(detail == "127.0.0.1:\(port): Connection refused (errno 111)")
        // Not the 60-second timeout: a refusal is an answer, not retried (generous for loaded runs).
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test(
        "settings that cannot work are refused when the sender is made",
        arguments: [
            ("ftp://example.com", accountSID), ("not a url", accountSID), ("https://", accountSID), ("http://api.twilio.com", accountSID),
            ("https://api.twilio.com", "AC/../x"), ("https://api.twilio.com", ""),
        ])
    func misconfigured(baseURL: String, accountSID: String) {
        let error = #expect(throws: SMSSendError.self) {
            _ = try TwilioSMSSender(
                credentials: .authToken(accountSID: accountSID, authToken: "t"), origin: .phoneNumber("+15555550100"), baseURL: baseURL)
        }
        guard case .misconfigured = error?.reason else {
            Issue.record("expected misconfigured, got \(String(describing: error))")
            return
        }
        #expect(error?.sender == "twilio")
    }
}

extension Array {
    /// The one element, or nil when there are none or several.
    var only: Element? { count == 1 ? first : nil }
}
