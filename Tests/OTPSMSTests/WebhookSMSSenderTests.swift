import OTPTestUtilities
import Foundation
import NIOHTTP1
import OTPAuthentication
import OTPLoopbackHTTP
import OTPSMS
import Testing

/// The webhook sender against a real HTTP server on loopback.
@Suite("Webhook SMS sender")
struct WebhookSMSSenderTests {
    static let number = "+15555554444"
    static let text = "123456 is your code.\n\"Quotes\", \\backslashes\\, tabs\t and ü 🎉"
    static let bearer = "Bearer webhook-secret-never-shown"

    static func sender(_ url: String, timeout: Duration = .seconds(5), log: CapturedLog = CapturedLog()) throws -> WebhookSMSSender {
        try WebhookSMSSender(url: url, headers: [("Authorization", bearer), ("X-Tenant", "acme")], timeout: timeout, logger: log.logger)
    }

    @Test("a 2xx is sent: one JSON POST with the configured headers")
    func sends() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .accepted))
        let log = CapturedLog()
        let sender = try Self.sender(server.baseURL + "/hooks/sms?tenant=acme", log: log)
        try await sender.send(Self.text, to: Self.number)
        try await server.stop()

        let request = try #require(server.requests.only)
        #expect(request.method == .POST)
        #expect(request.uri == "/hooks/sms?tenant=acme")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Authorization") == Self.bearer)
        #expect(request.header("X-Tenant") == "acme")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
        #expect(json == ["to": Self.number, "text": Self.text])
        #expect(log.entries == [.init(level: .debug, message: "SMS to +1******4444 accepted (HTTP 202)")])
    }

    @Test("a 4xx is rejected with its status and first line, the message cut out of it")
    func rejected() async throws {
        let server = try await LoopbackHTTPServer.start(
            replying: .init(
                status: .unprocessableEntity, body: "cannot deliver \"123456 is your code.\" to +15555554444\ntrace…", contentType: "text/plain"))
        let log = CapturedLog()
        let sender = try Self.sender(server.baseURL, log: log)
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        try await server.stop()

        #expect(error == SMSSendError(.rejected("HTTP 422: cannot deliver \"[message] is your code.\" to +15555554444"), sender: "webhook"))
        let shown = "\(error.map(String.init(describing:)) ?? "")\n\(log.text)"
        #expect(!shown.contains("123456") && !shown.contains("webhook-secret"))
    }

    @Test("a 500 with an empty body is rejected with the status alone")
    func serverError() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .internalServerError))
        let sender = try Self.sender(server.baseURL)
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        try await server.stop()
        #expect(error == SMSSendError(.rejected("HTTP 500"), sender: "webhook"))
    }

    @Test("a webhook that answers after the timeout is timed out, at the timeout")
    func timesOut() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .ok, delay: .seconds(60)))
        let sender = try Self.sender(server.baseURL, timeout: .milliseconds(400))
        let start = ContinuousClock.now
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        let elapsed = ContinuousClock.now - start
        try await server.stop()
        #expect(error == SMSSendError(.timedOut(seconds: 0.4), sender: "webhook"))
        // Generous: a full parallel `swift test` on 2 cores can delay any task by seconds. What the
        // bound shows is that the send did not wait for the webhook's 60-second delay.
        #expect(elapsed >= .milliseconds(350) && elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test(
        "a status that arrives in time decides, with the body read until the timeout, even when it stalls",
        arguments: [(HTTPResponseStatus.ok, nil), (.badGateway, SMSSendError(.rejected("HTTP 502: upstream down"), sender: "webhook"))])
    func stalledBody(status: HTTPResponseStatus, expected: SMSSendError?) async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: status, body: "upstream down\n", stallsBody: true))
        let sender = try Self.sender(server.baseURL, timeout: .milliseconds(400))
        let start = ContinuousClock.now
        var thrown: SMSSendError?
        do throws(SMSSendError) {
            try await sender.send(Self.text, to: Self.number)
        } catch {
            thrown = error
        }
        let elapsed = ContinuousClock.now - start
        try await server.stop()
        #expect(thrown == expected)
        // Waited for the body until the timeout (generous bound for loaded runs).
        #expect(elapsed >= .milliseconds(350) && elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test("a closed port is unreachable, at once")
    func unreachable() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        let sender = try Self.sender("http://127.0.0.1:\(port)/sms", timeout: .seconds(60))
        let start = ContinuousClock.now
        let error = await #expect(throws: SMSSendError.self) { try await sender.send(Self.text, to: Self.number) }
        let elapsed = ContinuousClock.now - start
        guard case .unreachable = error?.reason else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        // Not the 60-second timeout: a refusal is an answer, not retried (generous for loaded runs).
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test("a header that could smuggle another, a URL that is not http, or plain http beyond loopback is refused when the sender is made")
    func misconfigured() throws {
        for (url, headers) in [
            ("http://127.0.0.1/sms", [("Authorization", "Bearer x\r\nX-Evil: 1")]), ("http://127.0.0.1/sms", [("Bad Name", "x")]),
            ("file:///etc/passwd", []), ("127.0.0.1:8080/sms", []), ("http://sms.example.com/send", []), ("http://10.0.0.5/sms", []),
            ("http://127.0.0.1.example.com/sms", []),
        ] {
            let error = #expect(throws: SMSSendError.self, "\(url) \(headers)") {
                _ = try WebhookSMSSender(url: url, headers: headers.map { (name: $0.0, value: $0.1) })
            }
            guard case .misconfigured = error?.reason else {
                Issue.record("expected misconfigured, got \(String(describing: error))")
                continue
            }
        }
        // https anywhere, plain http to this machine.
        for url in ["https://sms.example.com/send", "http://127.0.0.1:8080/sms", "http://localhost/sms", "http://[::1]:8080/sms"] {
            _ = try WebhookSMSSender(url: url)
        }
    }
}
