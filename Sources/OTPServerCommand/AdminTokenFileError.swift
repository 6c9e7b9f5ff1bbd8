/// Why the file of `--admin-token-file` cannot be used: one line naming the file and what to write
/// in it, never its content.
enum AdminTokenFileError: Error, CustomStringConvertible, Equatable {
    /// The file cannot be read.
    case unreadable(file: String, reason: String)
    /// The file holds nothing but blanks.
    case empty(file: String)
    /// The token has blanks, control characters or characters beyond ASCII inside.
    case notOneWord(file: String)
    /// The token is shorter than `minimum` characters.
    case tooShort(file: String, minimum: Int)

    static let advice = "such as `openssl rand -hex 32` prints"

    var description: String {
        let text =
            switch self {
            case .unreadable(let file, let reason):
                "cannot read the admin token file \(file): \(reason)"
            case .empty(let file):
                "the admin token file \(file) is empty: write a token of at least \(AdminTokenFile.minimumLength) characters into it, \(Self.advice)"
            case .notOneWord(let file):
                "the admin token in \(file) must be one word of visible ASCII characters, without blanks inside: write one \(Self.advice)"
            case .tooShort(let file, let minimum):
                "the admin token in \(file) is shorter than \(minimum) characters: write a longer one, \(Self.advice)"
            }
        return "otpkit-server: " + text
    }
}
