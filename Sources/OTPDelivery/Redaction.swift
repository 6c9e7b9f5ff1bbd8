/// What the senders do to anything they put in an error or a log: the recipient masked, the
/// message (which holds a code or a link with one) kept out even when a gateway, a server or a
/// program echoes it back.
package enum Redaction {
    /// `+15555554444` as `+1******4444`: enough to tell numbers apart in a log, not enough to
    /// read a user's number off it.
    package static func maskedPhoneNumber(_ phoneNumber: String) -> String {
        let characters = Array(phoneNumber)
        // Short numbers would be mostly visible with a 2 + 4 split; they keep only their last two.
        let (head, tail) = characters.count > 8 ? (2, 4) : (0, min(2, characters.count))
        let hidden = characters.count - head - tail
        return String(characters[..<head]) + String(repeating: "*", count: hidden) + String(characters[(characters.count - tail)...])
    }

    /// `ada.lovelace@example.com` as `a***********@example.com`: the domain, which says which mail
    /// provider failed, and the first character of the mailbox.
    package static func maskedAddress(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"), at != address.startIndex else { return String(repeating: "*", count: address.count) }
        let mailbox = address[..<at]
        return String(mailbox.prefix(1)) + String(repeating: "*", count: mailbox.count - 1) + address[at...]
    }

    /// `detail` from a gateway's answer or a program's standard error, made safe to show: each of
    /// `secrets` (the message, a link) and each word of them holding a digit (a code) replaced by
    /// `[message]`, control and format characters dropped, and at most `limit` characters kept.
    package static func detail(_ detail: String, without secrets: [String], limit: Int = 200) -> String {
        // Control characters go first: dropped after the secrets, they could join a code split by
        // them (`7349\u{0}06`) back together in what is shown.
        var redacted = String(detail.unicodeScalars.filter { !$0.properties.generalCategory.isControl }.map(Character.init))
        for secret in secrets.sorted(by: { $0.count > $1.count }) where !secret.isEmpty {
            redacted = redacted.replacing(secret, with: "[message]")
        }
        // A program may quote only the code ("code 123456 not sent"): no digit-bearing word of the
        // message survives, whatever else surrounds it.
        // Words end at anything but letters, digits, `-` and `_` (base64url's alphabet), so that a
        // code glued to its name in a link's query (`oobCode=734906`) is a word of its own.
        let words = secrets.flatMap { $0.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) }
        for word in Set(words).sorted(by: { $0.count > $1.count }) where word.contains(where: \.isNumber) && word.count >= 3 {
            redacted = redacted.replacing(word, with: "[message]")
        }
        let trimmed = redacted.trimmingWhitespace()
        return trimmed.count > limit ? String(trimmed.prefix(limit)) + "…" : trimmed
    }

    /// The first line of `bytes` (an answer's body, a program's standard error), as text.
    package static func firstLine(of bytes: some Collection<UInt8>) -> String {
        let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).first ?? []
        return String(decoding: line, as: UTF8.self)
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControl: Bool { self == .control || self == .format }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
