/// Known secrets (RFC 4226 / RFC 6238 seeds) in Base32.
enum Seeds {
    static let sha1 = base32(Array("12345678901234567890".utf8))
    static let sha256 = base32(Array("12345678901234567890123456789012".utf8))
    static let sha512 = base32(Array("1234567890123456789012345678901234567890123456789012345678901234".utf8))

    /// RFC 4648 Base32 without padding, written here so that the tests do not share OTPKit's encoder.
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var output = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= 0xFF
        }
        if bits > 0 { output.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return output
    }
}
