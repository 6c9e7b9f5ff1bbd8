import Foundation

/// Reading an export as text: UTF-8, with the byte-order mark some Windows editors add removed.
enum TextDecoding {
    /// The text of `data`, or `nil` when it is not UTF-8 (a binary file).
    static func string(from data: Data) -> String? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return String(validating: bytes, as: UTF8.self)
    }
}
