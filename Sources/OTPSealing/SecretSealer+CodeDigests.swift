internal import CCryptoOpenSSL
internal import OTPCore

extension SecretSealer {
    /// Domain separation from every other use of the keys (sealing, key ids).
    private static let codeDigestLabel = Array("OTPKit code digest v1\u{0}".utf8)

    /// The length of a code digest in bytes (HMAC-SHA256).
    public static let codeDigestByteCount = 32

    /// The keyed digest of a one-time code (a recovery code, a code sent by SMS) under the current
    /// key: what a store keeps instead of the code.
    ///
    /// HMAC-SHA256 under the sealing key, so a copy of the store alone cannot test guesses at a
    /// code: the key is not in it. `context` binds the digest to its user and purpose, so a
    /// digest copied to another user or another purpose matches nothing.
    public func codeDigest(_ code: String, context: String) throws(SealingError) -> [UInt8] {
        try Self.codeDigest(code, context: context, key: currentKey)
    }

    /// The code's digests under every key of the keyring, the current key's first: a store finds a
    /// stored digest among them whichever key was current when the code was stored, so a key
    /// rotation does not void codes already handed out.
    public func codeDigests(_ code: String, context: String) throws(SealingError) -> [[UInt8]] {
        var digests = [try codeDigest(code, context: context)]
        for key in keys.values where key.id != currentKeyID {
            digests.append(try Self.codeDigest(code, context: context, key: key))
        }
        return digests
    }

    private static func codeDigest(_ code: String, context: String, key: SealingKey) throws(SealingError) -> [UInt8] {
        let message = codeDigestLabel + Array(context.utf8) + [0] + Array(code.utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.storage.withUnsafeBytes { keyBytes in
            HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), message, message.count, &digest, &length)
        }
        guard result != nil, length == UInt32(codeDigestByteCount) else {
            throw .cryptoFailure("HMAC-SHA256 could not digest a code")
        }
        return Array(digest.prefix(codeDigestByteCount))
    }
}
