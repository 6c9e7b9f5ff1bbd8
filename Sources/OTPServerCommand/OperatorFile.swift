internal import Foundation

/// A file the operator named (settings, a token), read whole, with the reason it could not be in
/// words that say what to check.
enum OperatorFile {
    /// Why a file could not be read.
    struct Unreadable: Error {
        let reason: String
    }

    /// The bytes of the file at `path`.
    static func contents(_ path: String) throws(Unreadable) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw Unreadable(reason: (error as NSError).code == NSFileReadNoSuchFileError ? "no such file" : "check that it exists and is readable")
        }
    }
}
