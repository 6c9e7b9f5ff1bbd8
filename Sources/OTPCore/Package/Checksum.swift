internal import CCryptoOpenSSL

/// SHA-256 through OpenSSL, for digests of public data (migrations, files, WebAuthn challenges);
/// never for secrets.
package enum Checksum {
    /// The SHA-256 digest of `bytes`, or `nil` when OpenSSL fails.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        let input = Array(bytes)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        var length: UInt32 = 0
        guard EVP_Digest(input, input.count, &digest, &length, EVP_sha256(), nil) == 1,
            length == UInt32(SHA256_DIGEST_LENGTH)
        else { return nil }
        return digest
    }

    /// The SHA-256 digest of `bytes` as lowercase hexadecimal, or `nil` when OpenSSL fails.
    package static func sha256Hex(_ bytes: some Collection<UInt8>) -> String? {
        sha256(bytes).map { Hex.encode($0) }
    }
}
