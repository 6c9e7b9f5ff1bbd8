package import OTPQR

/// How a command draws a QR code on a terminal: the one vocabulary of `totp qr --format`,
/// `totp new --format` and `totp enroll --qr`.
package enum QRStyle: String, CaseIterable, Sendable {
    /// Half blocks, dark modules drawn: for dark text on a light background.
    case utf8
    /// Half blocks, light modules drawn: for light text on a dark background.
    case utf8Inverted = "utf8-inverted"
    /// Background colours (ANSI escape sequences).
    case ansi
    /// `##` and spaces, for terminals and fonts without block characters.
    case ascii
    /// No drawing (the key and URI are still shown, and files still written).
    case none

    /// Reads a style's word; `inverted` is the word `totp enroll --qr` used before the two
    /// commands shared this vocabulary, kept so that existing scripts keep working.
    package init?(word: String) {
        if word == "inverted" {
            self = .utf8Inverted
        } else {
            self.init(rawValue: word)
        }
    }

    /// `code` drawn in this style; empty for ``none``.
    package func render(_ code: QRCode) -> String {
        switch self {
        case .utf8: code.utf8String(inverted: false)
        case .utf8Inverted: code.utf8String(inverted: true)
        case .ansi: code.ansiString()
        case .ascii: code.asciiString()
        case .none: ""
        }
    }

    /// The words, for help texts: `utf8, utf8-inverted, ansi, ascii or none`.
    package static var words: String {
        let all = allCases.map(\.rawValue)
        return all.dropLast().joined(separator: ", ") + " or " + all.last!
    }
}
