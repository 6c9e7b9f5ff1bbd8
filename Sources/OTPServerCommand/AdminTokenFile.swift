internal import Foundation

/// The file `--admin-token-file` names: the bearer token admin calls must carry, on one line.
///
/// A file rather than an option's value, so that the token never shows in the process list or a
/// shell's history.
enum AdminTokenFile {
    /// The shortest token taken: 32 characters, as `openssl rand -hex 16` writes at the least, so
    /// that the token cannot be guessed in any number of requests.
    static let minimumLength = 32

    /// The token in the file at `path`, without the line break and blanks around it.
    ///
    /// - Throws: ``AdminTokenFileError`` naming the file and what to write in it; never the
    ///   file's content.
    static func read(path: String) throws(AdminTokenFileError) -> String {
        let data: Data
        do {
            data = try OperatorFile.contents(path)
        } catch {
            throw .unreadable(file: path, reason: error.reason)
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .empty(file: path) }
        // A header value cannot carry line breaks or other controls, and a token with blanks or
        // characters beyond ASCII is one no client would send the same way twice.
        guard token.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else { throw .notOneWord(file: path) }
        guard token.utf8.count >= minimumLength else { throw .tooShort(file: path, minimum: minimumLength) }
        return token
    }
}
