extension CommandEmailSender {
    /// One argument of the program: fixed text, or the recipient's address, always passed as one
    /// whole argument of its own.
    ///
    /// A string literal is fixed text: `["-i", "--", .recipient]`. Arguments read from a
    /// configuration file go through ``init(template:)``, where `{to}` stands for the address.
    public enum Argument: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// Passed as written.
        case literal(String)
        /// The recipient's address, such as `ada@example.com`.
        case recipient

        /// Fixed text.
        public init(stringLiteral value: String) {
            self = .literal(value)
        }

        /// `{to}` as the recipient, anything else as fixed text; only a whole argument is the
        /// placeholder.
        public init(template: String) {
            self = template == "{to}" ? .recipient : .literal(template)
        }

        /// The template spelling: `{to}` or the text itself.
        public var description: String {
            switch self {
            case .literal(let text): text
            case .recipient: "{to}"
            }
        }

        func resolved(recipient: String) -> String {
            switch self {
            case .literal(let literal): literal
            case .recipient: recipient
            }
        }
    }
}
