internal import CCryptoOpenSSL

// The HMAC here is composed from OpenSSL's compression functions (SHA*_Transform) rather than
// HMAC()/EVP_MAC because those re-run the key schedule or a generic dispatch per call, four blocks
// and several allocations instead of two blocks and none. The message is always one 8-byte counter
// (inner) or one digest (outer), so the Merkle–Damgård padding of the final block is a constant
// layout: 0x80, zeros, and the bit length of key block plus message.

// Layout of the per-code stack scratch: the hash context, of which OpenSSL's *_Transform reads and
// writes only the chaining value at its start, then one message block.
private let blockOffset = 256
private let scratchByteCount = 256 + 128

// Every store below that feeds OpenSSL is one 16-byte vector store at a 16-byte boundary, because
// the assembly block functions load their input and state 16 bytes at a time: a load that spans two
// narrower stores cannot be forwarded from the store buffer and stalls until they retire, and that
// stall sits on the inner-to-outer dependency of every code.
private typealias Lane = SIMD4<UInt32>

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
            state.words = SIMD16(context.h0, context.h1, context.h2, context.h3, context.h4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            OPENSSL_cleanse(&context, MemoryLayout<SHA_CTX>.size)
        case .sha256:
            var context = SHA256_CTX()
            SHA256_Init(&context)
            SHA256_Transform(&context, data)
            let h = context.h
            state.words = SIMD16(h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7, 0, 0, 0, 0, 0, 0, 0, 0)
            OPENSSL_cleanse(&context, MemoryLayout<SHA256_CTX>.size)
        case .sha512:
            var context = SHA512_CTX()
            SHA512_Init(&context)
            SHA512_Transform(&context, data)
            withUnsafeBytes(of: context.h) { state.words = $0.loadUnaligned(as: SIMD16<UInt32>.self) }
            OPENSSL_cleanse(&context, MemoryLayout<SHA512_CTX>.size)
        }
        return state
    }

    /// One code: inner block, then outer block, on one scratch.
    @inline(__always)
    func truncatedValue<Hash: HMACBlockLayout>(_: Hash.Type, counter: UInt64) -> UInt32 {
        withScratch(count: 1) { scratch in
            let context = scratch
            let block = scratch + blockOffset
            Hash.storeState(inner, into: context)
            Hash.storeInnerMessage(counter, into: block)
            Hash.transform(context, block)
            Hash.storeOuterMessage(from: context, into: block)
            Hash.storeState(outer, into: context)
            Hash.transform(context, block)
            return Hash.truncatedValue(context)
        }
    }

    /// Two independent codes with their calls interleaved (inner, inner, outer, outer), so that the
    /// processor runs one code's compression while the other's waits on its own previous block.
    @inline(__always)
    func truncatedValues<Hash: HMACBlockLayout>(_: Hash.Type, counters first: UInt64, _ second: UInt64) -> (UInt32, UInt32) {
        withScratch(count: 2) { scratch in
            let context0 = scratch
            let block0 = scratch + blockOffset
            let context1 = scratch + scratchByteCount
            let block1 = context1 + blockOffset
            Hash.storeState(inner, into: context0)
            Hash.storeState(inner, into: context1)
            Hash.storeInnerMessage(first, into: block0)
            Hash.storeInnerMessage(second, into: block1)
            Hash.transform(context0, block0)
            Hash.transform(context1, block1)
            Hash.storeOuterMessage(from: context0, into: block0)
            Hash.storeState(outer, into: context0)
            Hash.storeOuterMessage(from: context1, into: block1)
            Hash.storeState(outer, into: context1)
            Hash.transform(context0, block0)
            Hash.transform(context1, block1)
            return (Hash.truncatedValue(context0), Hash.truncatedValue(context1))
        }
    }
}

/// How HMAC over one 8-byte counter lays out its two final blocks for one hash, on OpenSSL's
/// context and block function. Static and `@inline(__always)` so each use specialises to straight
/// code around two `*_Transform` calls.
protocol HMACBlockLayout {
    /// Copies the part of a chaining value the hash uses to the start of `context`.
    static func storeState(_ state: ChainingValue, into context: UnsafeMutableRawPointer)
    static func transform(_ context: UnsafeMutableRawPointer, _ block: UnsafeMutableRawPointer)
    /// The counter and the padding for a message of one key block plus 8 bytes.
    static func storeInnerMessage(_ counter: UInt64, into block: UnsafeMutableRawPointer)
    /// The inner digest, read from the chaining value in `context`, and its padding.
    static func storeOuterMessage(from context: UnsafeMutableRawPointer, into block: UnsafeMutableRawPointer)
    /// RFC 4226 dynamic truncation of the digest held in `context`.
    static func truncatedValue(_ context: UnsafeMutableRawPointer) -> UInt32
}

enum SHA1Layout: HMACBlockLayout {
    @inline(__always)
    static func storeState(_ state: ChainingValue, into context: UnsafeMutableRawPointer) {
        context.storeBytes(of: state.words.lowHalf, as: SIMD8<UInt32>.self)
    }

    @inline(__always)
    static func transform(_ context: UnsafeMutableRawPointer, _ block: UnsafeMutableRawPointer) {
        SHA1_Transform(context.assumingMemoryBound(to: SHA_CTX.self), block.assumingMemoryBound(to: UInt8.self))
    }

    @inline(__always)
    static func storeInnerMessage(_ counter: UInt64, into block: UnsafeMutableRawPointer) {
        storeCounterBlock(counter, keyedLength: 64, into: block)
    }

    @inline(__always)
    static func storeOuterMessage(from context: UnsafeMutableRawPointer, into block: UnsafeMutableRawPointer) {
        block.storeBytes(of: bigEndianLane(context, at: 0), as: Lane.self)
        let e = context.load(fromByteOffset: 16, as: UInt32.self)
        block.storeBytes(of: Lane(e.bigEndian, 0x80, 0, 0), toByteOffset: 16, as: Lane.self)
        block.storeBytes(of: lengthLane(bytes: 64 + 20), toByteOffset: 48, as: Lane.self)
    }

    @inline(__always)
    static func truncatedValue(_ context: UnsafeMutableRawPointer) -> UInt32 {
        truncate32(context, offset: Int(context.load(fromByteOffset: 16, as: UInt32.self) & 0xF))
    }
}

enum SHA256Layout: HMACBlockLayout {
    @inline(__always)
    static func storeState(_ state: ChainingValue, into context: UnsafeMutableRawPointer) {
        context.storeBytes(of: state.words.lowHalf, as: SIMD8<UInt32>.self)
    }

    @inline(__always)
    static func transform(_ context: UnsafeMutableRawPointer, _ block: UnsafeMutableRawPointer) {
        SHA256_Transform(context.assumingMemoryBound(to: SHA256_CTX.self), block.assumingMemoryBound(to: UInt8.self))
    }

    @inline(__always)
    static func storeInnerMessage(_ counter: UInt64, into block: UnsafeMutableRawPointer) {
        storeCounterBlock(counter, keyedLength: 64, into: block)
    }

    @inline(__always)
    static func storeOuterMessage(from context: UnsafeMutableRawPointer, into block: UnsafeMutableRawPointer) {
        block.storeBytes(of: bigEndianLane(context, at: 0), as: Lane.self)
        block.storeBytes(of: bigEndianLane(context, at: 16), toByteOffset: 16, as: Lane.self)
        block.storeBytes(of: Lane(0x80, 0, 0, 0), toByteOffset: 32, as: Lane.self)
        block.storeBytes(of: lengthLane(bytes: 64 + 32), toByteOffset: 48, as: Lane.self)
    }

    @inline(__always)
    static func truncatedValue(_ context: UnsafeMutableRawPointer) -> UInt32 {
        truncate32(context, offset: Int(context.load(fromByteOffset: 28, as: UInt32.self) & 0xF))
    }
}

enum SHA512Layout: HMACBlockLayout {
    @inline(__always)
    static func storeState(_ state: ChainingValue, into context: UnsafeMutableRawPointer) {
        context.storeBytes(of: state.words, as: SIMD16<UInt32>.self)
    }

    @inline(__always)
    static func transform(_ context: UnsafeMutableRawPointer, _ block: UnsafeMutableRawPointer) {
        SHA512_Transform(context.assumingMemoryBound(to: SHA512_CTX.self), block.assumingMemoryBound(to: UInt8.self))
    }

    @inline(__always)
    static func storeInnerMessage(_ counter: UInt64, into block: UnsafeMutableRawPointer) {
        block.storeBytes(of: SIMD2<UInt64>(counter.bigEndian, 0x80), as: SIMD2<UInt64>.self)
        for offset in stride(from: 16, to: 112, by: 16) {
            block.storeBytes(of: Lane(), toByteOffset: offset, as: Lane.self)
        }
        block.storeBytes(of: lengthLane(bytes: 128 + 8), toByteOffset: 112, as: Lane.self)
    }

    @inline(__always)
    static func storeOuterMessage(from context: UnsafeMutableRawPointer, into block: UnsafeMutableRawPointer) {
        // The 64-byte inner digest (eight 64-bit words); bytes 80...111 are still zero from the inner message.
        for offset in stride(from: 0, to: 64, by: 16) {
            let pair = SIMD2<UInt64>(
                context.load(fromByteOffset: offset, as: UInt64.self).bigEndian,
                context.load(fromByteOffset: offset + 8, as: UInt64.self).bigEndian
            )
            block.storeBytes(of: pair, toByteOffset: offset, as: SIMD2<UInt64>.self)
        }
        block.storeBytes(of: SIMD2<UInt64>(0x80, 0), toByteOffset: 64, as: SIMD2<UInt64>.self)
        block.storeBytes(of: lengthLane(bytes: 128 + 64), toByteOffset: 112, as: Lane.self)
    }

    @inline(__always)
    static func truncatedValue(_ context: UnsafeMutableRawPointer) -> UInt32 {
        // The four digest bytes from `offset`, read from the 64-bit chaining words.
        let offset = Int(context.load(fromByteOffset: 56, as: UInt64.self) & 0xF)
        let word = offset >> 3
        let shift = UInt64(offset & 7) * 8
        let high = context.load(fromByteOffset: word * 8, as: UInt64.self)
        let low = context.load(fromByteOffset: word * 8 + 8, as: UInt64.self)
        let window = (high &<< shift) | ((low &>> 1) &>> (63 &- shift))
        return UInt32(truncatingIfNeeded: window >> 32) & 0x7FFF_FFFF
    }
}

/// Runs `body` with uninitialised, 16-byte aligned stack scratch for `count` codes, each a hash
/// context and a message block. Only the chaining value of a context is ever written and read, so
/// nothing is zeroed. (Above 16 bytes of alignment the standard library moves it to the heap.)
@inline(__always)
private func withScratch<R>(count: Int, _ body: (UnsafeMutableRawPointer) -> R) -> R {
    withUnsafeTemporaryAllocation(byteCount: count * scratchByteCount, alignment: 16) { body($0.baseAddress!) }
}

/// The inner message of a 64-byte-block hash: the big-endian counter, then padding for
/// `keyedLength` + 8 bytes.
@inline(__always)
private func storeCounterBlock(_ counter: UInt64, keyedLength: Int, into block: UnsafeMutableRawPointer) {
    block.storeBytes(of: SIMD2<UInt64>(counter.bigEndian, 0x80), as: SIMD2<UInt64>.self)
    block.storeBytes(of: Lane(), toByteOffset: 16, as: Lane.self)
    block.storeBytes(of: Lane(), toByteOffset: 32, as: Lane.self)
    block.storeBytes(of: lengthLane(bytes: keyedLength + 8), toByteOffset: 48, as: Lane.self)
}

/// The last 16 bytes of a final block whose message (key block included) is `bytes` long: zeros,
/// then the bit length as a big-endian integer in the last four bytes.
@inline(__always)
private func lengthLane(bytes: Int) -> Lane {
    Lane(0, 0, 0, UInt32(bytes * 8).bigEndian)
}

/// Four 32-bit chaining words, as the bytes of the digest they encode.
@inline(__always)
private func bigEndianLane(_ context: UnsafeMutableRawPointer, at offset: Int) -> Lane {
    Lane(
        context.load(fromByteOffset: offset, as: UInt32.self).bigEndian,
        context.load(fromByteOffset: offset + 4, as: UInt32.self).bigEndian,
        context.load(fromByteOffset: offset + 8, as: UInt32.self).bigEndian,
        context.load(fromByteOffset: offset + 12, as: UInt32.self).bigEndian
    )
}

/// RFC 4226 section 5.3 on a digest held as 32-bit chaining words: the four digest bytes from
/// `offset` (0...15), with the top bit cleared. Reading the words, rather than storing the digest
/// and loading at the byte offset, keeps every load inside one earlier store.
@inline(__always)
private func truncate32(_ context: UnsafeMutableRawPointer, offset: Int) -> UInt32 {
    let word = offset >> 2
    let pair =
        UInt64(context.load(fromByteOffset: word * 4, as: UInt32.self)) << 32
        | UInt64(context.load(fromByteOffset: word * 4 + 4, as: UInt32.self))
    return UInt32(truncatingIfNeeded: pair &>> (32 &- UInt64(offset & 3) * 8)) & 0x7FFF_FFFF
}
