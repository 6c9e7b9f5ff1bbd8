import Foundation
import OTPAuthentication
import OTPLoopbackHTTP
import OTPMail
import OTPTestUtilities
import Testing

/// The webhook sender against a real HTTP server on loopback.
@Suite("Webhook email sender")
struct WebhookEmailSenderTests {
    static let message = SMTPEmailSenderTests.message
    static let bearer = "Bearer mail-hook-secret-never-shown"

    static func sender(_ url: String, from: String? = "no-reply@example.com", log: CapturedLog = CapturedLog()) throws -> WebhookEmailSender {
        try WebhookEmailSender(url: url, headers: [("Authorization", bearer)], from: from, timeout: .seconds(5), logger: log.logger)
    }

    @Test("a 2xx is sent: one JSON POST with the message's fields and the configured headers")
    func sends() async throws {
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .ok))
        let log = CapturedLog()
        let sender = try Self.sender(server.baseURL + "/hooks/mail", log: log)
        try await sender.send(Self.message)
        var withoutFrom = Self.message
        withoutFrom.kind = .emailSignIn
        try await Self.sender(server.baseURL + "/hooks/mail", from: nil).send(withoutFrom)
        try await server.stop()

        let requests = server.requests
        try #require(requests.count == 2)
        #expect(requests[0].method == .POST && requests[0].uri == "/hooks/mail")
        #expect(requests[0].header("Content-Type") == "application/json" && requests[0].header("Authorization") == Self.bearer)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(requests[0].body)) as? [String: String])
        #expect(
            json == [
                "to": "ada@example.com", "from": "no-reply@example.com", "subject": Self.message.subject, "text": Self.message.body,
                "link": Self.message.link, "kind": "PASSWORD_RESET",
            ])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(requests[1].body)) as? [String: String])
        #expect(second["from"] == nil && second["kind"] == "EMAIL_SIGNIN")
        #expect(log.entries == [.init(level: .debug, message: "email to a**@example.com (PASSWORD_RESET) accepted (HTTP 200)")])
    }

    @Test("a refusal is rejected with its status and first line, the link and its code cut out of it")
    func rejected() async throws {
        var message = Self.message
        message.link = "https://auth.example.com/a?mode=resetPassword&oobCode=QkR9x_Zt-4aPq"
        message.body = "Follow this link:\n\n\(message.link)\n"
        let server = try await LoopbackHTTPServer.start(
            replying: .init(status: .badRequest, body: "bad code QkR9x_Zt-4aPq in \(message.link)\nmore", contentType: "text/plain"))
        let log = CapturedLog()
        let sender = try Self.sender(server.baseURL, log: log)
        let error = await #expect(throws: EmailSendError.self) { try await sender.send(message) }
        try await server.stop()

        #expect(error == EmailSendError(.rejected("HTTP 400: bad code [message] in [message]"), sender: "webhook"))
        let shown = "\(error.map(String.init(describing:)) ?? "")\n\(log.text)"
        #expect(!shown.contains("QkR9x") && !shown.contains("mail-hook-secret"))
    }

    /// Found by FuzzGatewayAnswers (Tests/Fuzz/Regressions/FuzzGatewayAnswers/): the link's code
    /// is a word of the message only once `=` ends a word as punctuation does
    /// (`mail-webhook-quotes-link-altered`), and control characters inside a quoted code must be
    /// dropped before the code is looked for, not after (`mail-webhook-code-split-by-nul`).
    @Test(
        "a refusal that quotes the link altered still loses the link's code",
        arguments: [#"{"error":"bad link https://example.com/?o,obCode=734906"}"#, "{\"error\":\"?oobCode=7349\u{0}\u{0}06\"}"])
    func rejectedWithTheLinkAltered(_ answer: String) async throws {
        var message = Self.message
        message.link = "https://example.com/?oobCode=734906"
        message.body = "Open \(message.link)"
        let server = try await LoopbackHTTPServer.start(replying: .init(status: .badRequest, body: answer, contentType: "application/json"))
        let sender = try Self.sender(server.baseURL)
        let error = await #expect(throws: EmailSendError.self) { try await sender.send(message) }
        try await server.stop()

        let shown = error.map(String.init(describing:)) ?? ""
        #expect(shown.contains("HTTP 400") && !shown.contains("734906") && !shown.contains("7349"), "\(shown)")
    }

    @Test("a closed port is unreachable; plain http beyond loopback and a header that could smuggle another are refused when made")
    func failures() async throws {
        let port = try await LoopbackHTTPServer.closedPort()
        let sender = try Self.sender("http://127.0.0.1:\(port)/hook")
        let error = await #expect(throws: EmailSendError.self) { try await sender.send(Self.message) }
        guard case .unreachable = error?.reason else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        for (url, headers) in [("http://mail.example.com/hook", []), ("https://mail.example.com/hook", [("X-A", "b\r\nX-Injected: 1")])] {
            let refusal = #expect(throws: EmailSendError.self, "\(url)") { _ = try WebhookEmailSender(url: url, headers: headers) }
            guard case .misconfigured = refusal?.reason else {
                Issue.record("expected misconfigured, got \(String(describing: refusal))")
                continue
            }
        }
    }
}
