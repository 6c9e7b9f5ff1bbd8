import Foundation
import OTPAuthentication
import OTPMail
import OTPTestUtilities
import Testing

/// The SMTP sender against aiosmtpd on loopback (``SMTPServer``): STARTTLS, authentication, the
/// message as Python's own `email` package reads it, and each failure typed without the message.
@Suite("SMTP sender")
struct SMTPEmailSenderTests {
    static let message = EmailMessage(
        to: "ada@example.com", subject: "Réinitialiser le mot de passe de Éxample",
        body: "Hello,\n\nFollow this link:\n\nhttps://auth.example.com/a?mode=resetPassword&oobCode=abc\n\n. a line with a dot\n",
        link: "https://auth.example.com/a?mode=resetPassword&oobCode=abc", kind: .passwordReset)

    static func sender(_ server: SMTPServer, port: Int? = nil, password: String = "s3cret", timeout: Duration = .seconds(30)) throws
        -> SMTPEmailSender
    {
        try SMTPEmailSender(
            url: "smtp://127.0.0.1:\(port ?? server.port)", username: "mailer", password: password, from: "no-reply@example.com",
            fromName: "Éxample", certificateAuthorityFile: server.certificateAuthorityFile, timeout: timeout)
    }

    @Test("a message goes over STARTTLS after AUTH, and Python's email package reads its headers and UTF-8 body back")
    func delivers() async throws {
        try await SMTPServer.with { server in
            try await Self.sender(server).send(Self.message)
            let received = try #require(try await server.messages(count: 1).first)
            #expect(received["tls"] as? Bool == true && received["login"] as? String == "mailer")
            #expect(received["mailFrom"] as? String == "no-reply@example.com" && received["rcptTo"] as? [String] == ["ada@example.com"])
            #expect(received["subject"] as? String == "Réinitialiser le mot de passe de Éxample")
            #expect(received["from"] as? String == "Éxample <no-reply@example.com>")
            #expect(received["to"] as? String == "ada@example.com")
            #expect(received["contentType"] as? String == "text/plain" && received["charset"] as? String == "utf-8")
            #expect((received["messageID"] as? String)?.hasSuffix("@example.com>") == true)
            #expect((received["date"] as? String)?.isEmpty == false)
            let body = try #require(received["body"] as? String)
            #expect(body.replacing("\r\n", with: "\n") == Self.message.body, "the body, its lone-dot line included: \(body.debugDescription)")
        }
    }

    @Test("a wrong password, a refused recipient, a closed port and a server that never answers are typed errors without the message")
    func failures() async throws {
        try await SMTPServer.with { server in
            let wrong = await #expect(throws: EmailSendError.self) { try await Self.sender(server, password: "wrong").send(Self.message) }
            guard case .rejected(let detail) = wrong?.reason else {
                Issue.record("\(String(describing: wrong))")
                return
            }
            #expect(detail.contains("535") || detail.lowercased().contains("login"), "\(detail)")

            var refused = Self.message
            refused.to = "reject-me@example.com"
            let rejected = await #expect(throws: EmailSendError.self) { try await Self.sender(server).send(refused) }
            #expect(rejected?.description.contains("550") == true, "\(String(describing: rejected))")

            // Port 1 on loopback: nothing listens there.
            let closed = await #expect(throws: EmailSendError.self) { try await Self.sender(server, port: 1).send(Self.message) }
            guard case .unreachable = closed?.reason else {
                Issue.record("\(String(describing: closed))")
                return
            }

            let started = ContinuousClock.now
            let silent = await #expect(throws: EmailSendError.self) {
                try await Self.sender(server, port: server.silentPort, timeout: .seconds(1)).send(Self.message)
            }
            #expect(silent?.reason == .timedOut(seconds: 1), "\(String(describing: silent))")
            #expect(ContinuousClock.now - started >= .milliseconds(900))
            for failure in [wrong, rejected, closed, silent] {
                let text = failure?.description ?? ""
                #expect(!text.contains("oobCode") && !text.contains("s3cret"), "\(text)")
            }
            let received = try await server.messages(count: 0)
            #expect(received.isEmpty, "a refused message was delivered: \(received)")
        }
    }

    @Test("settings that cannot work are refused when the sender is made, and a recipient that is not one address when sending")
    func misconfigured() async throws {
        for (url, from) in [("http://mail.example.com", "a@example.com"), ("smtp://", "a@example.com"), ("smtp://mail.example.com", "nobody")] {
            #expect(throws: EmailSendError.self) { _ = try SMTPEmailSender(url: url, from: from) }
        }
        let sender = try SMTPEmailSender(url: "smtp://127.0.0.1:1", from: "a@example.com")
        var injected = Self.message
        injected.to = "ada@example.com\r\nBcc: eve@example.com"
        let error = await #expect(throws: EmailSendError.self) { try await sender.send(injected) }
        #expect(error?.reason == .rejected("the recipient is not one address"))
    }
}
