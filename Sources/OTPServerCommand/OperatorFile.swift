internal import ArgumentParser
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

extension OperatorFile {
    /// A `NAME=FILE` option value taken apart, the file read as text: what `--hmac-import-key` and
    /// `--mail-template` take. `nil` when the value has no `NAME=` or `name` does not know the name.
    ///
    /// - Throws: `ValidationError` naming `option` and the file when it cannot be read.
    static func named<Name>(_ argument: String, option: String, name: (Substring) -> Name?) throws(ValidationError) -> (
        name: Name, path: String, text: String
    )? {
        guard let equals = argument.firstIndex(of: "="), let named = name(argument[..<equals]) else { return nil }
        let path = String(argument[argument.index(after: equals)...])
        do {
            return (named, path, String(decoding: try contents(path), as: UTF8.self))
        } catch {
            throw ValidationError("\(option): cannot read \(path): \(error.reason)")
        }
    }
}
