internal import CSHALanes

// Codes four at a time on the lane kernels of CSHALanes, which build both HMAC blocks in registers
// and interleave four chains, so that the SHA extensions always have an independent chain to work
// on (one chain's rounds wait on their own previous results; OpenSSL's transform runs one chain).

/// Whether this process runs the lane kernels: an x86-64 CPU with the SHA extensions, and
/// `OTPKIT_DISABLE_SHA_LANES` unset (which forces OpenSSL's transforms, for tests and comparisons).
enum SHALanes {
    // A computed property: the C side caches its answer, and reading it there is cheaper than the
    // once-check a lazily initialised global pays on every verification.
    static var available: Bool { CSHALanes_available() != 0 }
}

extension PreparedKey {
    /// Whether ``truncatedValues(lanes:count:into:)`` may be used: SHA-1 and SHA-256 when
    /// ``SHALanes/available``; SHA-512, whose blocks the kernels do not cover, never.
    var computesInLanes: Bool {
        algorithm != .sha512 && SHALanes.available
    }

    /// The key schedule as the kernels take it: the inner chaining value, then the outer one,
    /// packed (10 words for SHA-1, 16 for SHA-256).
    @inline(__always)
    var laneKey: SIMD16<UInt32> {
        if algorithm == .sha1 {
            var packed = inner.words
            for word in 0..<5 { packed[5 + word] = outer.words[word] }
            return packed
        }
        return SIMD16(lowHalf: inner.words.lowHalf, highHalf: outer.words.lowHalf)
    }

    /// ``truncatedValue(counter:)`` of `count` counters, written to `values`. Only for keys that
    /// ``computesInLanes``.
    @inline(__always)
    func truncatedValues(lanes counters: UnsafePointer<UInt64>, count: Int, into values: UnsafeMutablePointer<UInt32>) {
        withUnsafeBytes(of: laneKey) { key in
            Self.laneValues(algorithm, keys: key, keyStride: 0, counters: counters, counterStride: 1, into: values, count: count)
        }
    }

    /// The kernel for `algorithm` (SHA-1 or SHA-256) over `count` codes; strides count
    /// ``laneKey``-sized keys and counters, 0 repeating the first.
    @inline(__always)
    static func laneValues(
        _ algorithm: OTPAlgorithm, keys: UnsafeRawBufferPointer, keyStride: Int, counters: UnsafePointer<UInt64>, counterStride: Int,
        into values: UnsafeMutablePointer<UInt32>, count: Int
    ) {
        // A packed key is a run of UInt32 words (SIMD16<UInt32> has their layout).
        let words = keys.baseAddress!.assumingMemoryBound(to: UInt32.self)
        let wordStride = keyStride * MemoryLayout<SIMD16<UInt32>>.stride / MemoryLayout<UInt32>.stride
        if algorithm == .sha1 {
            CSHALanes_hotp_sha1(words, wordStride, counters, counterStride, values, count)
        } else {
            CSHALanes_hotp_sha256(words, wordStride, counters, counterStride, values, count)
        }
    }
}
