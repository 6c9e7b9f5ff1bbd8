internal import Foundation
internal import OTPAuthentication

/// A message of an email action as mail programs take it (RFC 5322 in UTF-8), and what of it no
/// error may quote: what the SMTP sender submits and the command sender pipes.
enum MailFormat {
    /// How lines end: CRLF on the SMTP wire, LF for a local program such as sendmail, as Unix
    /// mail tools read and write messages.
    enum LineEnding {
        case crlf
        case lf
    }

    /// The message: headers (the subject and the sender's name as RFC 2047 encoded words when they
    /// are not ASCII), a UTF-8 plain-text body ending in a line end.
    static func bytes(
        _ message: EmailMessage, from: String, fromName: String?, date: Date, messageID: String, lineEnding: LineEnding
    ) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let sender = fromName.map { "\(encodedWord($0)) <\(from)>" } ?? from
        let headers = [
            "Date: \(formatter.string(from: date))",
            "From: \(sender)",
            "To: \(message.to)",
            "Subject: \(encodedWord(message.subject))",
            "Message-ID: <\(messageID)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
        ]
        // Every line end one LF first, by scalars (`"\r\n"` is one Character), the body ending in one.
        var body = String(String.UnicodeScalarView(message.body.unicodeScalars.filter { $0 != "\r" }))
        if !body.hasSuffix("\n") { body += "\n" }
        let text = Array((headers.joined(separator: "\n") + "\n\n" + body).utf8)
        switch lineEnding {
        case .lf: return text
        case .crlf: return text.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
        }
    }

    /// Whether an address would end its header or its angle brackets: by scalars, as `"\r\n"` is
    /// one `Character` that equals neither `"\r"` nor `"\n"`.
    static func breaksHeader(_ address: String) -> Bool {
        address.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "<" || $0 == ">" }
    }

    /// Whether `address` is one recipient that can stand in a header and an argument.
    static func isOneRecipient(_ address: String) -> Bool {
        !breaksHeader(address) && !address.contains(",") && !address.hasPrefix("-") && address.contains("@")
    }

    /// `text` as it may stand in a header: as it is when printable ASCII, else an RFC 2047 encoded
    /// word (`=?utf-8?b?…?=`). Line breaks never pass, so no header can be added through it.
    static func encodedWord(_ text: String) -> String {
        let flat = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : $0 }))
        if flat.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return flat }
        return "=?utf-8?b?" + Data(flat.utf8).base64EncodedString() + "?="
    }

    /// What an error or a log must not quote from `message`: its body, its link and each value of
    /// the link's query (the code).
    static func secrets(of message: EmailMessage) -> [String] {
        let values = URLComponents(string: message.link)?.queryItems?.compactMap(\.value).filter { $0.count >= 8 } ?? []
        return [message.body, message.link] + values
    }
}
