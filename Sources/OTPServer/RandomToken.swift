internal import OTPCore

/// Random identifiers of the server's own (key ids, account ids it makes), from OpenSSL's CSPRNG.
enum RandomToken {
    struct Unavailable: Error {}

    /// `byteCount` random bytes as lower-case hex.
    static func hex(byteCount: Int) throws(Unavailable) -> String {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let filled = bytes.withUnsafeMutableBytes { SecureRandom.fill($0) }
        guard filled else { throw Unavailable() }
        return Hex.encode(bytes)
    }
}
