/// What the senders do to anything they put in an error or a log: the phone number masked, the
/// message (which holds a code) kept out even when a gateway or program echoes it back.
enum Redaction {
    /// `+15555554444` as `+1******4444`: enough to tell numbers apart in a log, not enough to
    /// read a user's number off it.
    static func maskedPhoneNumber(_ phoneNumber: String) -> String {
        let characters = Array(phoneNumber)
        // Short numbers would be mostly visible with a 2 + 4 split; they keep only their last two.
        let (head, tail) = characters.count > 8 ? (2, 4) : (0, min(2, characters.count))
        let hidden = characters.count - head - tail
        return String(characters[..<head]) + String(repeating: "*", count: hidden) + String(characters[(characters.count - tail)...])
    }

    /// `detail` from a gateway's answer or a program's standard error, made safe to show: the
    /// message text and each word of it holding a digit (the code) replaced by `[message]`, control
    /// characters dropped, and at most `limit` characters kept.
    static func detail(_ detail: String, withoutMessage message: String, limit: Int = 200) -> String {
        var redacted = detail
        if !message.isEmpty {
            redacted = redacted.replacing(message, with: "[message]")
        }
        // A program may quote only the code ("code 123456 not sent"): no digit-bearing word of the
        // message survives, whatever else surrounds it.
        let words = message.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation && $0 != "-" })
        for word in Set(words) where word.contains(where: \.isNumber) && word.count >= 3 {
            redacted = redacted.replacing(word, with: "[message]")
        }
        let printable = String(redacted.unicodeScalars.filter { !$0.properties.generalCategory.isControl }.map(Character.init))
        let trimmed = printable.trimmingWhitespace()
        return trimmed.count > limit ? String(trimmed.prefix(limit)) + "…" : trimmed
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
