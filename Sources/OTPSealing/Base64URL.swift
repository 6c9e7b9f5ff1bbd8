internal import ExtrasBase64

/// base64url without padding (RFC 7515 section 2), as JSON Web Keys and signed tokens write bytes.
package enum Base64URL {
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        Base64.encodeToString(bytes: bytes, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The bytes of `text`, or `nil` when it is not base64url without padding.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(text.utf8)
    }

    /// The bytes `utf8` spells in base64url without padding, or `nil` when it does not.
    package static func decode(_ utf8: some Collection<UInt8>) -> [UInt8]? {
        guard !utf8.contains(UInt8(ascii: "=")) else { return nil }
        return try? Base64.decode(bytes: utf8, options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }
}

extension Base64URL {
    /// The bytes of `text` in either base64 alphabet, padded or not: firebase-admin writes
    /// password hashes URL-safe, firebase-tools' export files standard.
    package static func decodeEitherAlphabet(_ text: some StringProtocol) -> [UInt8]? {
        var utf8 = Array(text.utf8)
        while utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
        for index in utf8.indices {
            switch utf8[index] {
            case UInt8(ascii: "+"): utf8[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): utf8[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return decode(utf8)
    }
}
