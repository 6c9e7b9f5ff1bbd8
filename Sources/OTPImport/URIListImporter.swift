import Foundation
import OTPURI

/// Reads a text file of `otpauth://` URIs, one a line, as Aegis, Ente Auth and FreeOTP+ export them.
///
/// Blank lines and `#` comments are skipped; a line that is not a usable URI is reported with its
/// number and the rest are imported, since one hand-edited line should not lose the others.
enum URIListImporter {
    /// A line with content, and its number counted from 1.
    struct Line {
        let number: Int
        let text: String
    }

    static func read(_ text: String) -> ImportResult {
        var result = ImportResult()
        for line in contentLines(of: text) {
            if let reason = unsupportedType(of: line.text) {
                result.skipped.append(SkippedEntry(position: .line(line.number), label: label(ofUnsupported: line.text), reason: reason))
                continue
            }
            do {
                result.accounts.append(try OTPAuthURI(parsing: line.text, mode: .lenient))
            } catch {
                result.skipped.append(SkippedEntry(position: .line(line.number), label: nil, reason: .invalidURI(error)))
            }
        }
        return result
    }

    /// The lines that are neither blank nor `#` comments, trimmed, with their numbers.
    static func contentLines(of text: String) -> [Line] {
        // Split on "\n" only and trim: "\r\n" is one Character in Swift, so it would not match "\n".
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        var result: [Line] = []
        for (index, scalars) in lines.enumerated() {
            let trimmed = String(String.UnicodeScalarView(scalars)).trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            result.append(Line(number: index + 1, text: trimmed))
        }
        return result
    }

    /// Steam and mOTP URIs are recognized so that they are reported as such, not as bad lines,
    /// and never parsed as TOTP.
    private static func unsupportedType(of line: String) -> SkipReason? {
        let lowercased = line.prefix(16).lowercased()
        if lowercased.hasPrefix("otpauth://steam/") || lowercased.hasPrefix("otpauth://steam?") { return .steam }
        if lowercased.hasPrefix("otpauth://motp/") || lowercased.hasPrefix("otpauth://motp?") { return .mOTP }
        return nil
    }

    /// The label (`Issuer:Account`) of a Steam or mOTP URI, percent-decoded, only to name the
    /// skipped line. Not through the otpauth parser: it would refuse Steam's 5 digits.
    private static func label(ofUnsupported line: String) -> String? {
        let afterScheme = line.dropFirst("otpauth://".count)
        guard let slash = afterScheme.firstIndex(of: "/") else { return nil }
        let label = afterScheme[afterScheme.index(after: slash)...].prefix { $0 != "?" && $0 != "#" }
        guard !label.isEmpty else { return nil }
        return label.removingPercentEncoding ?? String(label)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and carriage returns.
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
