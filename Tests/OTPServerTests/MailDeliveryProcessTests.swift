import Foundation
import OTPLoopbackHTTP
import OTPTestUtilities
import Testing

/// `otpkit-server`'s mail options through the built executable: a password reset mailed through
/// aiosmtpd on loopback (STARTTLS, a login from `--smtp-password-file`, the server's certificate
/// from `--smtp-ca-file`), its link followed; a mail server that is down answered 503 with the
/// code discarded; and options that cannot work together refused at start.
@Suite struct MailDeliveryProcessTests {
    static func mailArguments(_ smtp: SMTPServer, port: Int? = nil, in directory: TemporaryDirectory) throws -> [String] {
        let passwordFile = directory.file("smtp-password")
        try #require(FileManager.default.createFile(atPath: passwordFile, contents: Data("s3cret\n".utf8), attributes: [.posixPermissions: 0o600]))
        return [
            "--api-key", "demo-key", "--smtp-url", "smtp://127.0.0.1:\(port ?? smtp.port)", "--smtp-user", "mailer", "--smtp-password-file",
            passwordFile, "--smtp-ca-file", smtp.certificateAuthorityFile, "--mail-from", "no-reply@example.com", "--app-name", "Example",
            "--email-action-url", "https://app.example.com/action",
        ]
    }

    @Test func aPasswordResetIsMailedAndItsLinkSetsTheNewPassword() async throws {
        try await SMTPServer.with { smtp in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // The reset's message from a template file of the operator's.
            let template = directory.file("reset.txt")
            try "Subject: {app}: choose a new password\n\nHello {email},\n\n{link}\n".write(toFile: template, atomically: true, encoding: .utf8)
            let arguments = try Self.mailArguments(smtp, in: directory) + ["--mail-template", "PASSWORD_RESET=\(template)"]
            try await ServerProcess.with(arguments: arguments, in: directory) { server in
                let created = try await server.post(ClientEndpointTests.signUp, #"{"email":"ada@example.com","password":"long enough"}"#)
                try #require(created.status == 200, "\(created.body)")
                let sent = try await server.post(
                    "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-key",
                    #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#)
                #expect(sent.status == 200, "\(sent.body)")
                let message = try #require(try await smtp.messages(count: 1).first)
                #expect(message["tls"] as? Bool == true && message["login"] as? String == "mailer")
                #expect(message["subject"] as? String == "Example: choose a new password")
                #expect(message["from"] as? String == "Example <no-reply@example.com>" && message["to"] as? String == "ada@example.com")
                let body = try #require(message["body"] as? String)
                #expect(body.hasPrefix("Hello ada@example.com,"), "\(body)")
                let link = try #require(body.split(whereSeparator: \.isNewline).first { $0.hasPrefix("https://app.example.com/action?") }, "\(body)")
                let items = try #require(URLComponents(string: String(link))?.queryItems)
                #expect(items.first { $0.name == "apiKey" }?.value == "demo-key" && items.first { $0.name == "mode" }?.value == "resetPassword")
                let code = try #require(items.first { $0.name == "oobCode" }?.value)
                let reset = try await server.post(
                    "/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=demo-key", #"{"oobCode":"\#(code)","newPassword":"from the mail"}"#
                )
                #expect(reset.status == 200, "\(reset.body)")
                let signedIn = try await server.post(ServerProcess.signInPath, #"{"email":"ada@example.com","password":"from the mail"}"#)
                #expect(signedIn.status == 200, "\(signedIn.body)")
            }
        }
    }

    /// The code of the `mode` link in `text`, after checking the link's page, mode and key.
    static func code(inLinkOf text: String, mode: String) throws -> String {
        let link = try #require(
            text.split(whereSeparator: { $0.isNewline || $0 == "\"" }).first { $0.hasPrefix("https://app.example.com/action?") }, "\(text)")
        let items = try #require(URLComponents(string: String(link))?.queryItems)
        #expect(items.first { $0.name == "mode" }?.value == mode && items.first { $0.name == "apiKey" }?.value == "demo-key")
        return try #require(items.first { $0.name == "oobCode" }?.value)
    }

    @Test func anAddressVerificationGoesThroughTheMailCommandAndAResetThroughTheWebhook() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The sendmail interface: the recipient as an argument, the whole message on standard input.
        let program = directory.file("sendmail")
        try "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$MAIL_DIRECTORY/arguments\"; cat > \"$MAIL_DIRECTORY/message\"\n".write(
            toFile: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        let common = ["--api-key", "demo-key", "--mail-from", "no-reply@example.com", "--email-action-url", "https://app.example.com/action"]
        let command = [
            "--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id", "demo-project",
            "--port", "0", "--mail-command", program, "--mail-arg", "-i", "--mail-arg", "{to}", "--mail-env", "MAIL_DIRECTORY",
        ]
        try await ServerProcess.with(
            commandLine: command + common, environment: ["MAIL_DIRECTORY": directory.path], projectID: "demo-project", in: directory
        ) { server in
            let created = try await server.post(ClientEndpointTests.signUp, #"{"email":"ada@example.com","password":"long enough"}"#)
            let idToken = try #require(created.json["idToken"] as? String, "\(created.body)")
            let sent = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-key", #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#)
            #expect(sent.status == 200, "\(sent.body)")
            #expect(try String(contentsOfFile: directory.file("arguments"), encoding: .utf8) == "-i\nada@example.com\n")
            let message = try String(contentsOfFile: directory.file("message"), encoding: .utf8)
            #expect(message.contains("\nTo: ada@example.com\n") && message.contains("\nFrom: demo-project <no-reply@example.com>\n"), "\(message)")
            let code = try Self.code(inLinkOf: message, mode: "verifyEmail")
            let applied = try await server.post("/identitytoolkit.googleapis.com/v1/accounts:update?key=demo-key", #"{"oobCode":"\#(code)"}"#)
            #expect(applied.status == 200 && applied.json["emailVerified"] as? Bool == true, "\(applied.body)")
        }

        let hook = try await LoopbackHTTPServer.start(replying: .init(status: .accepted))
        try await ServerProcess.with(arguments: common + ["--mail-webhook", hook.baseURL + "/mail"], in: directory) { server in
            _ = try await server.post(ClientEndpointTests.signUp, #"{"email":"bob@example.com","password":"long enough"}"#)
            let sent = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-key", #"{"requestType":"PASSWORD_RESET","email":"bob@example.com"}"#
            )
            #expect(sent.status == 200, "\(sent.body)")
            let requests = hook.requests
            try #require(requests.count == 1, "\(requests.count) requests")
            let request = requests[0]
            let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String])
            #expect(json["to"] == "bob@example.com" && json["from"] == "no-reply@example.com" && json["kind"] == "PASSWORD_RESET")
            let code = try Self.code(inLinkOf: try #require(json["link"]), mode: "resetPassword")
            #expect(json["text"]?.contains(try #require(json["link"])) == true)
            let reset = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=demo-key", #"{"oobCode":"\#(code)","newPassword":"from the hook"}"#)
            #expect(reset.status == 200, "\(reset.body)")
        }
        try await hook.stop()

        // Senders that cannot work stop the server before it listens, naming the option.
        for (options, says) in [
            (
                ["--mail-command", "sendmail"],
                #"--mail-command: the command mail sender is misconfigured: the program path "sendmail" is not absolute"#
            ),
            (["--mail-webhook", "http://mail.example.com/hook"], "--mail-webhook: the webhook mail sender is misconfigured: the URL"),
            (["--mail-webhook", "https://mail.example.com/hook", "--mail-command", program], "--mail-webhook, --mail-log and --emulator"),
        ] {
            let run = try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"),
                [
                    "--db", directory.file("refused.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id",
                    "demo-project", "--port", "0",
                ] + common
                    + options, environment: ServerProcess.serverEnvironment([:]))
            #expect(run.status != 0 && run.stdout.isEmpty && run.stderr.contains(says), "\(options): \(run)")
        }
        let withoutSender = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            [
                "--db", directory.file("refused.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id",
                "demo-project", "--port", "0",
            ]
                + ["--api-key", "demo-key", "--mail-command", program], environment: ServerProcess.serverEnvironment([:]))
        #expect(withoutSender.status == 64 && withoutSender.stderr.contains("--mail-command needs --mail-from ADDRESS"), "\(withoutSender)")
    }

    @Test func aMailServerThatIsDownIsA503AndLeavesNoCode() async throws {
        try await SMTPServer.with { smtp in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            // Port 1 on loopback: nothing listens there.
            try await ServerProcess.with(arguments: try Self.mailArguments(smtp, port: 1, in: directory), in: directory) { server in
                _ = try await server.post(ClientEndpointTests.signUp, #"{"email":"bob@example.com","password":"long enough"}"#)
                let sent = try await server.post(
                    "/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=demo-key",
                    #"{"requestType":"PASSWORD_RESET","email":"bob@example.com"}"#)
                #expect(sent.status == 503, "\(sent.body)")
                #expect(sent.errorMessage == "INTERNAL_ERROR : the email could not be sent: try again later", "\(sent.body)")
                #expect(!sent.body.contains("127.0.0.1") && !sent.body.contains("mailer"), "\(sent.body)")
            }
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let linkless = directory.file("linkless.txt")
        try "Subject: Hello\n\nNo link.\n".write(toFile: linkless, atomically: true, encoding: .utf8)
        try await ServerProcess.expectRefusedAtStart([
            (
                ["--mail-template", "RESET=\(linkless)"],
                "--mail-template takes PASSWORD_RESET, VERIFY_EMAIL, EMAIL_SIGNIN, VERIFY_AND_CHANGE_EMAIL, RECOVER_EMAIL, then =FILE"
            ),
            (["--mail-template", "PASSWORD_RESET=\(linkless)"], "--mail-template \(linkless): the body must hold {link}"),
            (["--mail-template", "EMAIL_SIGNIN=\(directory.file("missing.txt"))"], "--mail-template: cannot read \(directory.file("missing.txt"))"),
            (
                ["--smtp-url", "smtp://127.0.0.1:25", "--mail-from", "a@example.com"],
                "--smtp-url, --mail-command, --mail-webhook, --mail-log and --emulator (which lists the emails) are alternatives"
            ),
            (["--mail-from", "a@example.com"], "--mail-from configures --smtp-url, --mail-command or --mail-webhook: pass one of them too"),
            (["--smtp-user", "mailer"], "--smtp-user, --smtp-password-file and --smtp-ca-file configure --smtp-url: pass it too"),
            (["--mail-arg", "{to}"], "--mail-arg and --mail-env configure --mail-command: pass it too"),
            (["--email-action-url", "/relative"], "--email-action-url: email actions: actionURL must be an absolute http or https URL"),
        ])
    }
}
