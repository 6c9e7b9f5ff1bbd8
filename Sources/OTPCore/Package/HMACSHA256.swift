internal import CCryptoOpenSSL

/// HMAC-SHA256 (RFC 2104) composed from OpenSSL's low-level SHA-256 calls.
///
/// Written out rather than calling `HMAC()` or `EVP_MAC`: in OpenSSL 3 those fetch their
/// implementation from a provider on first use, several million instructions, more than a whole
/// `totp NAME` answered from the vault's keyring snapshot, which is what this authenticates. The
/// low-level calls run the compression function directly. Checked against RFC 4231's vectors in
/// the tests.
package enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    package static func code(key: some Collection<UInt8>, message: UnsafeRawBufferPointer) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 64)
        if key.count > 64 {
            block.replaceSubrange(0..<32, with: Array(key).withUnsafeBytes { sha256([$0]) })
        } else {
            block.replaceSubrange(0..<key.count, with: key)
        }
        var inner = block.map { $0 ^ 0x36 }
        var outer = block.map { $0 ^ 0x5c }
        defer {
            for index in 0..<64 {
                block[index] = 0
                inner[index] = 0
                outer[index] = 0
            }
        }
        let innerDigest = inner.withUnsafeBytes { sha256([$0, message]) }
        return outer.withUnsafeBytes { pad in innerDigest.withUnsafeBytes { sha256([pad, $0]) } }
    }

    private static func sha256(_ parts: [UnsafeRawBufferPointer]) -> [UInt8] {
        var context = SHA256_CTX()
        SHA256_Init(&context)
        for part in parts where part.count > 0 {
            SHA256_Update(&context, part.baseAddress, part.count)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&digest, &context)
        return digest
    }
}
