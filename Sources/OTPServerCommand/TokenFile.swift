internal import Foundation

/// A file holding a bearer token on one line: `--admin-token-file`'s, which admin calls must
/// carry, and `--metrics-token-file`'s, which `GET /metrics` must.
///
/// A file rather than an option's value, so that the token never shows in the process list or a
/// shell's history.
enum TokenFile {
    /// The shortest token taken: 32 characters, as `openssl rand -hex 16` writes at the least, so
    /// that the token cannot be guessed in any number of requests.
    static let minimumLength = 32

    /// The token in the file at `path`, without the line break and blanks around it; `kind`
    /// (`admin`, `metrics`) names it in errors.
    ///
    /// - Throws: ``TokenFileError`` naming the file and what to write in it; never the file's
    ///   content.
    static func read(path: String, kind: String) throws(TokenFileError) -> String {
        let data: Data
        do {
            data = try OperatorFile.contents(path)
        } catch {
            throw .unreadable(kind: kind, file: path, reason: error.reason)
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .empty(kind: kind, file: path) }
        // A header value cannot carry line breaks or other controls, and a token with blanks or
        // characters beyond ASCII is one no client would send the same way twice.
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { throw .notOneWord(kind: kind, file: path) }
        guard token.utf8.count >= minimumLength else { throw .tooShort(kind: kind, file: path, minimum: minimumLength) }
        return token
    }
}
