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

    /// Appends `text` to `output`, escaping exactly the bytes that must be escaped in `place`.
    static func append(_ text: String, escapingFor place: Place, to output: inout String) {
        let table = place == .label ? labelTable : queryTable
        var clean = true
        for byte in text.utf8 where table[Int(byte)] == 0 {
            clean = false
            break
        }
        if clean {
            output += text
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if table[Int(byte)] != 0 {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 15)])
            }
        }
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` would be changed by escaping for `place`.
    static func needsEscaping(_ text: String, for place: Place) -> Bool {
        let table = place == .label ? labelTable : queryTable
        return text.utf8.contains { table[Int($0)] == 0 }
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

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func table(allowing extra: String) -> [UInt8] {
        var table = [UInt8](repeating: 0, count: 256)
        // RFC 3986 unreserved characters.
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = 1 }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = 1 }
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = 1 }
        for byte in "-._~".utf8 { table[Int(byte)] = 1 }
        for byte in extra.utf8 { table[Int(byte)] = 1 }
        return table
    }

    private static let labelTable = table(allowing: "!$&'()*+,;=@")
    private static let queryTable = table(allowing: "!$'()*,;:@/?")
}
