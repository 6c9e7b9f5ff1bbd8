internal import CCurl
internal import Foundation
public import OTPAuthentication
internal import NIOPosix
internal import OTPCore
internal import OTPOutbound

/// Sends the messages of email actions to an SMTP server (a submission port with STARTTLS and
/// authentication, or `smtps://`), through libcurl's SMTP support.
///
/// No Swift SMTP package is available to OTPKit, and SMTP is not written here by hand: libcurl, a
/// C library kept by Debian, speaks the protocol (EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA with
/// its dot-stuffing), and this type sets its options through a small C shim (`CCurl`; Swift
/// cannot call the variadic `curl_easy_setopt`) and writes the message (RFC 5322, UTF-8). Each send
/// runs on the threads outbound exchanges block on, bounded by ``timeout``.
public struct SMTPEmailSender: EmailSender {
    /// The server: `smtp://host:587` (STARTTLS) or `smtps://host:465`.
    public let url: String
    /// The account to authenticate as, with its password; `nil` for none.
    public let username: String?
    let password: String?
    /// The sender address, in `MAIL FROM` and `From:`.
    public let from: String
    /// How the `From:` header names the sender (`"Example" <no-reply@example.com>`); `nil` for the
    /// address alone.
    public let fromName: String?
    /// Whether a connection without TLS is refused (STARTTLS or `smtps://`): on by default, so that
    /// neither the password nor the links cross a network in clear text.
    public let requiresTLS: Bool
    /// A PEM file of certificates to verify the server with instead of the system's.
    public let certificateAuthorityFile: String?
    /// The longest a send may take, connection included.
    public let timeout: Duration

    /// Creates a sender.
    /// - Throws: `EmailSendError` (misconfigured) for a URL that is not `smtp://` or `smtps://`
    ///   with a host, or a sender address without an `@`.
    public init(
        url: String, username: String? = nil, password: String? = nil, from: String, fromName: String? = nil, requiresTLS: Bool = true,
        certificateAuthorityFile: String? = nil, timeout: Duration = .seconds(30)
    ) throws(EmailSendError) {
        guard let components = URLComponents(string: url), ["smtp", "smtps"].contains(components.scheme?.lowercased() ?? ""),
            components.host?.isEmpty == false
        else {
            throw EmailSendError(.misconfigured("the SMTP URL must be smtp://HOST[:PORT] or smtps://HOST[:PORT]"), sender: "smtp")
        }
        guard from.contains("@"), !MailFormat.breaksHeader(from) else {
            throw EmailSendError(.misconfigured("the sender address must be one address, such as no-reply@example.com"), sender: "smtp")
        }
        self.url = url
        self.username = username
        self.password = password
        self.from = from
        self.fromName = fromName
        self.requiresTLS = requiresTLS
        self.certificateAuthorityFile = certificateAuthorityFile
        self.timeout = timeout
    }

    public func send(_ message: EmailMessage) async throws(EmailSendError) {
        guard MailFormat.isOneRecipient(message.to) else {
            throw EmailSendError(.rejected("the recipient is not one address"), sender: "smtp")
        }
        let payload = MailFormat.bytes(message, from: from, fromName: fromName, date: Date(), messageID: UUID().uuidString, lineEnding: .crlf)
        let milliseconds = Int(timeout.milliseconds)
        let (code, response, detail): (Int32, Int, String)
        do {
            (code, response, detail) = try await OutboundThreads.pool.runIfActive { [self] in
                perform(payload: payload, to: message.to, milliseconds: milliseconds)
            }
        } catch {
            throw EmailSendError(.unreachable("the thread pool that sends mail is shut down"), sender: "smtp")
        }
        guard code != 0 else { return }
        // CURLE_OPERATION_TIMEDOUT; connection failures; everything else is the server's refusal.
        switch code {
        case 28: throw EmailSendError(.timedOut(seconds: Double(milliseconds) / 1_000), sender: "smtp")
        case 6, 7: throw EmailSendError(.unreachable(detail), sender: "smtp")
        default: throw EmailSendError(.rejected(response > 0 ? "\(detail) (SMTP \(response))" : detail), sender: "smtp")
        }
    }

    private func perform(payload: [UInt8], to recipient: String, milliseconds: Int) -> (Int32, Int, String) {
        var result = otpkit_smtp_result()
        payload.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { text in
                url.withCString { url in
                    from.withCString { from in
                        recipient.withCString { to in
                            withOptionalCString(username) { username in
                                withOptionalCString(password) { password in
                                    withOptionalCString(certificateAuthorityFile) { caFile in
                                        var message = otpkit_smtp_message(
                                            url: url, username: username, password: password, from: from, to: to, payload: text.baseAddress,
                                            payload_length: text.count, timeout_milliseconds: milliseconds, require_tls: requiresTLS ? 1 : 0,
                                            ca_file: caFile)
                                        otpkit_smtp_send(&message, &result)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let detail = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return (result.curl_code, result.response_code, detail)
    }
}

private func withOptionalCString<Result>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
