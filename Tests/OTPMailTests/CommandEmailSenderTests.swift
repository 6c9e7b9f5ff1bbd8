import Foundation
import OTPAuthentication
import OTPMail
import OTPTestUtilities
import Testing

/// The command sender with Debian's msmtp, a sendmail-compatible client nobody here wrote, handing
/// the message to aiosmtpd (``SMTPServer``), and with shell scripts for what a program sees.
@Suite("Command email sender")
struct CommandEmailSenderTests {
    static let message = SMTPEmailSenderTests.message

    /// Writes `body` as an executable `/bin/sh` script.
    static func script(_ body: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("send-mail")
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test("msmtp, as sendmail, takes the message from standard input to an SMTP server, where Python's email package reads it back")
    func deliversThroughSendmailInterface() async throws {
        let msmtp = try ExternalTool.msmtp.path()
        try await SMTPServer.with { server in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // msmtp's password belongs in its configuration file, which it reads only when private.
            let configuration = directory.file("msmtprc")
            try """
            account default
            host 127.0.0.1
            port \(server.port)
            from bounces@example.com
            tls on
            tls_starttls on
            tls_trust_file \(server.certificateAuthorityFile)
            auth on
            user mailer
            password s3cret

            """.write(toFile: configuration, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configuration)
            let log = CapturedLog()
            let sender = try CommandEmailSender(
                executable: msmtp, arguments: ["-C", .literal(configuration), "-i", "--", .recipient], from: "no-reply@example.com",
                fromName: "Éxample", logger: log.logger)
            try await sender.send(Self.message)

            let received = try #require(try await server.messages(count: 1).first)
            #expect(received["tls"] as? Bool == true && received["login"] as? String == "mailer")
            #expect(received["mailFrom"] as? String == "bounces@example.com" && received["rcptTo"] as? [String] == ["ada@example.com"])
            #expect(received["subject"] as? String == Self.message.subject)
            #expect(received["from"] as? String == "Éxample <no-reply@example.com>")
            #expect(received["to"] as? String == "ada@example.com")
            #expect(received["contentType"] as? String == "text/plain" && received["charset"] as? String == "utf-8")
            let body = try #require(received["body"] as? String)
            #expect(body.replacing("\r\n", with: "\n") == Self.message.body, "the body, its lone-dot line included: \(body.debugDescription)")
            #expect(log.entries == [.init(level: .debug, message: "email to a**@example.com (PASSWORD_RESET) handed to \(msmtp)")])
        }
    }

    @Test("the recipient is one whole argument where {to} stands, and the message with LF line ends the whole standard input")
    func argumentsAndInput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script(#"printf '%s\0' "$@" > "$ARGUMENTS_FILE"; cat > "$INPUT_FILE""#, in: directory)
        let sender = try CommandEmailSender(
            executable: program, arguments: ["-f", "no-reply@example.com", .init(template: "{to}"), "--to={to}"], from: "no-reply@example.com",
            environment: ["ARGUMENTS_FILE": directory.file("arguments"), "INPUT_FILE": directory.file("input")])
        try await sender.send(Self.message)

        let arguments = try Data(contentsOf: directory.url.appendingPathComponent("arguments")).split(separator: 0).map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(arguments == ["-f", "no-reply@example.com", "ada@example.com", "--to={to}"])
        let input = try String(contentsOfFile: directory.file("input"), encoding: .utf8)
        #expect(!input.contains("\r"))
        let (head, body) = try #require(input.split(separator: "\n\n", maxSplits: 1).map(String.init).pairs)
        let headers = head.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
        #expect(headers == ["Date", "From", "To", "Subject", "Message-ID", "MIME-Version", "Content-Type", "Content-Transfer-Encoding"])
        #expect(head.contains("\nTo: ada@example.com\n") && head.contains("\nSubject: =?utf-8?b?"))
        #expect(body == Self.message.body)
    }

    @Test("a non-zero exit is rejected with the status and the first line of standard error, without the link or its code")
    func rejected() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script(#"grep -o 'https://.*' | sed 's/^/no route for /' >&2; exit 75"#, in: directory)
        let log = CapturedLog()
        var message = Self.message
        message.link = "https://auth.example.com/a?mode=resetPassword&oobCode=QkR9x_Zt-4aPq"
        message.body = "Follow this link:\n\n\(message.link)\n"
        let sender = try CommandEmailSender(executable: program, arguments: [.recipient], from: "no-reply@example.com", logger: log.logger)
        let error = await #expect(throws: EmailSendError.self) { try await sender.send(message) }

        #expect(error == EmailSendError(.rejected("exit status 75: no route for [message]"), sender: "command"))
        #expect(!log.text.contains("oobCode") && !log.text.contains("QkR9x"))
        #expect(log.entries.map(\.message) == ["email to a**@example.com (PASSWORD_RESET) not sent: \(error.map(String.init(describing:)) ?? "")"])
    }

    @Test("a recipient that could read as an option or a second address, and settings that cannot work, are refused")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let program = try Self.script(#"touch "$RAN_FILE""#, in: directory)
        let sender = try CommandEmailSender(
            executable: program, arguments: [.recipient], from: "no-reply@example.com", environment: ["RAN_FILE": directory.file("ran")])
        for recipient in ["-oQ/tmp/x@example.com", "ada@example.com, eve@example.com", "ada@example.com\nBcc: eve@example.com"] {
            var message = Self.message
            message.to = recipient
            let error = await #expect(throws: EmailSendError.self, "\(recipient)") { try await sender.send(message) }
            #expect(error?.reason == .rejected("the recipient is not one address"))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("ran")), "the program ran for a refused recipient")

        for (executable, from) in [("sendmail", "a@example.com"), (directory.file("missing"), "a@example.com"), (program, "nobody")] {
            let error = #expect(throws: EmailSendError.self, "\(executable) \(from)") {
                _ = try CommandEmailSender(executable: executable, arguments: [.recipient], from: from)
            }
            guard case .misconfigured = error?.reason else {
                Issue.record("expected misconfigured, got \(String(describing: error))")
                continue
            }
        }
    }
}

extension Array {
    /// The two elements of a two-element array.
    fileprivate var pairs: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
