/// RFC 3986 percent-encoding for the two places an otpauth:// URI carries text.
///
/// Written here rather than taken from Foundation's `addingPercentEncoding` because the URI
/// module stays Foundation-free (servers link only what they use) and because the allowed sets
/// differ from Foundation's predefined ones in exactly the characters that matter here.
enum PercentEncoding {
    /// Where the text goes, which decides what must be escaped.
    enum Place {
        /// The issuer or account inside the label: a path segment (`pchar`) minus `:`, which
        /// separates issuer and account. `+` stays, as Firebase writes it in email addresses.
        case label
        /// A query parameter name or value: `pchar`, `/` and `?` minus `&`, `=` and `+`, which
        /// delimit parameters or mean a space to form decoders.
        case query
    }

    @inline(__always)
    static func isAllowed(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }

    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// The value of an ASCII hexadecimal digit, or `nil`.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        default: nil
        }
    }

    // Bit n of the first word allows byte n (0-63), of the second byte 64 + n; bytes from 128
    // (UTF-8 beyond ASCII) are always escaped. Both allow RFC 3986's unreserved characters
    // (A-Z a-z 0-9 - . _ ~) and:
    // label: ! $ & ' ( ) * + , ; = @            query: ! $ ' ( ) * , ; : @ / ?
    /// The allowed-byte masks for `place`.
    @inline(__always)
    static func masks(for place: Place) -> (low: UInt64, high: UInt64) {
        place == .label ? labelMask : queryMask
    }

    private static let labelMask: (UInt64, UInt64) = (0x2BFF_7FD2_0000_0000, 0x47FF_FFFE_87FF_FFFF)
    private static let queryMask: (UInt64, UInt64) = (0x8FFF_F792_0000_0000, 0x47FF_FFFE_87FF_FFFF)
}
