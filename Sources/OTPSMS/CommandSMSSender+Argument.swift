extension CommandSMSSender {
    /// One argument of the program: fixed text, or the recipient's number or the message, each
    /// always passed as one whole argument of its own.
    ///
    /// A string literal is fixed text: `["TEXT", .phoneNumber, "-text", .text]`. Arguments read
    /// from a configuration file go through ``init(template:)``, where `{to}` and `{text}` stand for
    /// the number and the message.
    public enum Argument: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// Passed as written.
        case literal(String)
        /// The recipient's number in E.164, such as `+15555550100`.
        case phoneNumber
        /// The message, exactly as the service wrote it (spaces, quotes, new lines and all).
        case text

        /// Fixed text.
        public init(stringLiteral value: String) {
            self = .literal(value)
        }

        /// `{to}` as the number, `{text}` as the message, anything else as fixed text.
        ///
        /// Only a whole argument is a placeholder: `--to={to}` stays as written. Substituting
        /// inside arguments would make a message containing `{to}` change meaning, and a program
        /// that takes `--to=NUMBER` takes `--to NUMBER` as well.
        public init(template: String) {
            switch template {
            case "{to}": self = .phoneNumber
            case "{text}": self = .text
            default: self = .literal(template)
            }
        }

        /// The template spelling: `{to}`, `{text}` or the text itself.
        public var description: String {
            switch self {
            case .literal(let text): text
            case .phoneNumber: "{to}"
            case .text: "{text}"
            }
        }

        func resolved(phoneNumber: String, text: String) -> String {
            switch self {
            case .literal(let literal): literal
            case .phoneNumber: phoneNumber
            case .text: text
            }
        }
    }
}
