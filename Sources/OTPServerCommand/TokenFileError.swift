/// Why a token file (`--admin-token-file`, `--metrics-token-file`) cannot be used: one line naming
/// the file and what to write in it, never its content. `kind` names the token (`admin`, `metrics`).
enum TokenFileError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read.
    case unreadable(kind: String, file: String, reason: String)
    /// The file holds nothing but blanks.
    case empty(kind: String, file: String)
    /// The token has blanks, control characters or characters beyond ASCII inside.
    case notOneWord(kind: String, file: String)
    /// The token is shorter than `minimum` characters.
    case tooShort(kind: String, file: String, minimum: Int)

    static let advice = "such as `openssl rand -hex 32` prints"

    var description: String {
        let text =
            switch self {
            case .unreadable(let kind, let file, let reason):
                "cannot read the \(kind) token file \(file): \(reason)"
            case .empty(let kind, let file):
                "the \(kind) token file \(file) is empty: write a token of at least \(TokenFile.minimumLength) characters into it, \(Self.advice)"
            case .notOneWord(let kind, let file):
                "the \(kind) token in \(file) must be one word of visible ASCII characters, without blanks inside: write one \(Self.advice)"
            case .tooShort(let kind, let file, let minimum):
                "the \(kind) token in \(file) is shorter than \(minimum) characters: write a longer one, \(Self.advice)"
            }
        return "otpkit-server: " + text
    }
}
