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

/// The lane kernels of CSHALanes, one per hash whose blocks they cover.
enum LaneKernel {
    case sha1
    case sha256

    /// The kernel of `algorithm`, `nil` for a hash the kernels do not cover (SHA-512's 128-byte
    /// blocks). The one place a hash meets a kernel: a new ``OTPAlgorithm`` case does not compile
    /// until it is given one or none here.
    init?(_ algorithm: OTPAlgorithm) {
        switch algorithm {
        case .sha1: self = .sha1
        case .sha256: self = .sha256
        case .sha512: return nil
        }
    }
}

extension PreparedKey {
    /// The kernel ``truncatedValues(lanes:kernel:count:into:)`` runs for this key: its hash's when
    /// ``SHALanes/available``, `nil` otherwise (OpenSSL's transforms then).
    var laneKernel: LaneKernel? {
        SHALanes.available ? LaneKernel(algorithm) : nil
    }

    /// The key schedule as `kernel` takes it: the inner chaining value, then the outer one,
    /// packed (10 words for SHA-1, 16 for SHA-256).
    @inline(__always)
    func laneKey(for kernel: LaneKernel) -> SIMD16<UInt32> {
        switch kernel {
        case .sha1:
            var packed = inner.words
            for word in 0..<5 { packed[5 + word] = outer.words[word] }
            return packed
        case .sha256:
            return SIMD16(lowHalf: inner.words.lowHalf, highHalf: outer.words.lowHalf)
        }
    }

    /// ``truncatedValue(counter:)`` of `count` counters, written to `values`, on `kernel` (this
    /// key's ``laneKernel``).
    @inline(__always)
    func truncatedValues(
        lanes counters: UnsafePointer<UInt64>, kernel: LaneKernel, count: Int, into values: UnsafeMutablePointer<UInt32>
    ) {
        withUnsafeBytes(of: laneKey(for: kernel)) { key in
            Self.laneValues(kernel, keys: key, keyStride: 0, counters: counters, counterStride: 1, into: values, count: count)
        }
    }

    /// `kernel` over `count` codes; strides count ``laneKey(for:)``-sized keys and counters, 0
    /// repeating the first.
    @inline(__always)
    static func laneValues(
        _ kernel: LaneKernel, keys: UnsafeRawBufferPointer, keyStride: Int, counters: UnsafePointer<UInt64>, counterStride: Int,
        into values: UnsafeMutablePointer<UInt32>, count: Int
    ) {
        // A packed key is a run of UInt32 words (SIMD16<UInt32> has their layout).
        let words = keys.baseAddress!.assumingMemoryBound(to: UInt32.self)
        let wordStride = keyStride * MemoryLayout<SIMD16<UInt32>>.stride / MemoryLayout<UInt32>.stride
        switch kernel {
        case .sha1: CSHALanes_hotp_sha1(words, wordStride, counters, counterStride, values, count)
        case .sha256: CSHALanes_hotp_sha256(words, wordStride, counters, counterStride, values, count)
        }
    }
}
