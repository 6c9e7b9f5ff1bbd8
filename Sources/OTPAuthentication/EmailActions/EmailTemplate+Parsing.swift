internal import Foundation

extension EmailTemplate {
    /// Why a template's text was refused.
    public struct ParsingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong and how to fix it.
        public let description: String
    }

    /// A template from its text: a first line `Subject: …`, an empty line, then the body, which
    /// must hold `{link}`; `{app}`, `{email}` and `{newEmail}` may appear in both. Line ends may
    /// be `\n` or `\r\n`.
    ///
    /// - Throws: ``ParsingError`` naming what is missing.
    public init(parsing text: String) throws(ParsingError) {
        let lines = text.replacing("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix("Subject:") else {
            throw ParsingError(description: "the first line must be the subject, as Subject: Reset your password for {app}")
        }
        let subject = first.dropFirst("Subject:".count).trimmingCharacters(in: .whitespaces)
        guard !subject.isEmpty else { throw ParsingError(description: "the subject is empty") }
        guard lines.count > 2, lines[1].isEmpty else {
            throw ParsingError(description: "an empty line must follow the subject, then the body")
        }
        var body = lines.dropFirst(2).joined(separator: "\n")
        while body.hasSuffix("\n") { body.removeLast() }
        guard body.contains("{link}") else {
            throw ParsingError(description: "the body must hold {link}, where the action's link goes")
        }
        self.init(subject: subject, body: body)
    }
}
