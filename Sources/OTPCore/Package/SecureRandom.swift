internal import CCryptoOpenSSL

/// OpenSSL's CSPRNG (`RAND_bytes`), the one source of every secret, nonce, key and id in OTPKit.
package enum SecureRandom {
    /// Fills `buffer` with random bytes; `false` when OpenSSL cannot (its generator failed to seed).
    @inlinable
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return true }
        return randomBytes(base.assumingMemoryBound(to: UInt8.self), Int32(buffer.count))
    }

    @usableFromInline
    static func randomBytes(_ base: UnsafeMutablePointer<UInt8>, _ count: Int32) -> Bool {
        RAND_bytes(base, count) == 1
    }
}
