internal import CCryptoOpenSSL

// The HMAC here is composed from OpenSSL's compression functions (SHA*_Transform) rather than
// HMAC()/EVP_MAC because those re-run the key schedule or a generic dispatch per call, four blocks
// and several allocations instead of two blocks and none. The message is always one 8-byte counter
// (inner) or one digest (outer), so the Merkle–Damgård padding of the final block is a constant
// layout: 0x80, zeros, and the bit length of key block plus message.

/// A 64-byte message block as eight big-endian words, on the stack.
private typealias Block64 = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
/// A 128-byte SHA-512 message block.
private typealias Block128 = (Block64, Block64)

private let zeroBlock64: Block64 = (0, 0, 0, 0, 0, 0, 0, 0)
private let paddingMarker: UInt64 = 0x80 << 56

extension PreparedKey {
    static func schedule(key: UnsafeRawBufferPointer, algorithm: OTPAlgorithm) -> (ChainingValue, ChainingValue) {
        let blockSize = algorithm.blockByteCount
        return withUnsafeTemporaryAllocation(byteCount: 2 * blockSize, alignment: 16) { scratch in
            defer { OPENSSL_cleanse(scratch.baseAddress, scratch.count) }
            let keyBlock = UnsafeMutableRawBufferPointer(rebasing: scratch[..<blockSize])
            let padBlock = UnsafeMutableRawBufferPointer(rebasing: scratch[blockSize...])
            keyBlock.initializeMemory(as: UInt8.self, repeating: 0)
            // RFC 2104: a key longer than the block is replaced by its digest.
            if key.count > blockSize {
                digest(key, algorithm: algorithm, into: keyBlock)
            } else {
                keyBlock.copyMemory(from: key)
            }
            for index in 0..<blockSize { padBlock[index] = keyBlock[index] ^ 0x36 }
            let inner = absorb(padBlock, algorithm: algorithm)
            for index in 0..<blockSize { padBlock[index] = keyBlock[index] ^ 0x5C }
            let outer = absorb(padBlock, algorithm: algorithm)
            return (inner, outer)
        }
    }

    private static func digest(_ data: UnsafeRawBufferPointer, algorithm: OTPAlgorithm, into output: UnsafeMutableRawBufferPointer) {
        let input = data.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        switch algorithm {
        case .sha1: _ = SHA1(input, data.count, out)
        case .sha256: _ = SHA256(input, data.count, out)
        case .sha512: _ = SHA512(input, data.count, out)
        }
    }

    /// The chaining value after compressing one block from the hash's initial value.
    private static func absorb(_ block: UnsafeMutableRawBufferPointer, algorithm: OTPAlgorithm) -> ChainingValue {
        let data = block.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var state = ChainingValue()
        switch algorithm {
        case .sha1:
            var context = SHA_CTX()
            SHA1_Init(&context)
            SHA1_Transform(&context, data)
            state.words = (UInt64(context.h0), UInt64(context.h1), UInt64(context.h2), UInt64(context.h3), UInt64(context.h4), 0, 0, 0)
            OPENSSL_cleanse(&context, MemoryLayout<SHA_CTX>.size)
        case .sha256:
            var context = SHA256_CTX()
            SHA256_Init(&context)
            SHA256_Transform(&context, data)
            let h = context.h
            state.words = (UInt64(h.0), UInt64(h.1), UInt64(h.2), UInt64(h.3), UInt64(h.4), UInt64(h.5), UInt64(h.6), UInt64(h.7))
            OPENSSL_cleanse(&context, MemoryLayout<SHA256_CTX>.size)
        case .sha512:
            var context = SHA512_CTX()
            SHA512_Init(&context)
            SHA512_Transform(&context, data)
            state.words = context.h
            OPENSSL_cleanse(&context, MemoryLayout<SHA512_CTX>.size)
        }
        return state
    }

    @inline(__always)
    func sha1TruncatedValue(counter: UInt64) -> UInt32 {
        var context = SHA_CTX()
        context.h0 = UInt32(truncatingIfNeeded: inner.words.0)
        context.h1 = UInt32(truncatingIfNeeded: inner.words.1)
        context.h2 = UInt32(truncatingIfNeeded: inner.words.2)
        context.h3 = UInt32(truncatingIfNeeded: inner.words.3)
        context.h4 = UInt32(truncatingIfNeeded: inner.words.4)
        var block = zeroBlock64
        block.0 = counter.bigEndian
        block.1 = paddingMarker.bigEndian
        block.7 = UInt64((64 + 8) * 8).bigEndian
        compressSHA1(&context, &block)

        block = zeroBlock64
        block.0 = (UInt64(context.h0) << 32 | UInt64(context.h1)).bigEndian
        block.1 = (UInt64(context.h2) << 32 | UInt64(context.h3)).bigEndian
        block.2 = (UInt64(context.h4) << 32 | paddingMarker >> 32).bigEndian
        block.7 = UInt64((64 + 20) * 8).bigEndian
        context.h0 = UInt32(truncatingIfNeeded: outer.words.0)
        context.h1 = UInt32(truncatingIfNeeded: outer.words.1)
        context.h2 = UInt32(truncatingIfNeeded: outer.words.2)
        context.h3 = UInt32(truncatingIfNeeded: outer.words.3)
        context.h4 = UInt32(truncatingIfNeeded: outer.words.4)
        compressSHA1(&context, &block)

        block.0 = (UInt64(context.h0) << 32 | UInt64(context.h1)).bigEndian
        block.1 = (UInt64(context.h2) << 32 | UInt64(context.h3)).bigEndian
        block.2 = (UInt64(context.h4) << 32).bigEndian
        return truncate(block, offset: Int(context.h4 & 0xF))
    }

    @inline(__always)
    func sha256TruncatedValue(counter: UInt64) -> UInt32 {
        var context = SHA256_CTX()
        context.h = Self.words32(inner)
        var block = zeroBlock64
        block.0 = counter.bigEndian
        block.1 = paddingMarker.bigEndian
        block.7 = UInt64((64 + 8) * 8).bigEndian
        compressSHA256(&context, &block)

        let h = context.h
        block = zeroBlock64
        block.0 = (UInt64(h.0) << 32 | UInt64(h.1)).bigEndian
        block.1 = (UInt64(h.2) << 32 | UInt64(h.3)).bigEndian
        block.2 = (UInt64(h.4) << 32 | UInt64(h.5)).bigEndian
        block.3 = (UInt64(h.6) << 32 | UInt64(h.7)).bigEndian
        block.4 = paddingMarker.bigEndian
        block.7 = UInt64((64 + 32) * 8).bigEndian
        context.h = Self.words32(outer)
        compressSHA256(&context, &block)

        let digest = context.h
        block.0 = (UInt64(digest.0) << 32 | UInt64(digest.1)).bigEndian
        block.1 = (UInt64(digest.2) << 32 | UInt64(digest.3)).bigEndian
        block.2 = (UInt64(digest.4) << 32 | UInt64(digest.5)).bigEndian
        return truncate(block, offset: Int(digest.7 & 0xF))
    }

    @inline(__always)
    func sha512TruncatedValue(counter: UInt64) -> UInt32 {
        var context = SHA512_CTX()
        context.h = inner.words
        var block: Block128 = (zeroBlock64, zeroBlock64)
        block.0.0 = counter.bigEndian
        block.0.1 = paddingMarker.bigEndian
        block.1.7 = UInt64((128 + 8) * 8).bigEndian
        compressSHA512(&context, &block)

        let h = context.h
        block.0 = (h.0.bigEndian, h.1.bigEndian, h.2.bigEndian, h.3.bigEndian, h.4.bigEndian, h.5.bigEndian, h.6.bigEndian, h.7.bigEndian)
        block.1 = zeroBlock64
        block.1.0 = paddingMarker.bigEndian
        block.1.7 = UInt64((128 + 64) * 8).bigEndian
        context.h = outer.words
        compressSHA512(&context, &block)

        let digest = context.h
        block.0.0 = digest.0.bigEndian
        block.0.1 = digest.1.bigEndian
        block.0.2 = digest.2.bigEndian
        return truncate(block.0, offset: Int(digest.7 & 0xF))
    }

    private static func words32(_ state: ChainingValue) -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
        let w = state.words
        return (
            UInt32(truncatingIfNeeded: w.0), UInt32(truncatingIfNeeded: w.1), UInt32(truncatingIfNeeded: w.2), UInt32(truncatingIfNeeded: w.3),
            UInt32(truncatingIfNeeded: w.4), UInt32(truncatingIfNeeded: w.5), UInt32(truncatingIfNeeded: w.6), UInt32(truncatingIfNeeded: w.7)
        )
    }
}

/// RFC 4226 section 5.3: four digest bytes from `offset`, with the top bit cleared.
@inline(__always)
private func truncate(_ digestPrefix: Block64, offset: Int) -> UInt32 {
    withUnsafeBytes(of: digestPrefix) { bytes in
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) & 0x7FFF_FFFF
    }
}

@inline(__always)
private func compressSHA1(_ context: inout SHA_CTX, _ block: inout Block64) {
    withUnsafeBytes(of: &block) { SHA1_Transform(&context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
}

@inline(__always)
private func compressSHA256(_ context: inout SHA256_CTX, _ block: inout Block64) {
    withUnsafeBytes(of: &block) { SHA256_Transform(&context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
}

@inline(__always)
private func compressSHA512(_ context: inout SHA512_CTX, _ block: inout Block128) {
    withUnsafeBytes(of: &block) { SHA512_Transform(&context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
}
