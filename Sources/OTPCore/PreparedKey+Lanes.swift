internal import CSHALanes

// Four codes at once on the lane kernels of CSHALanes: their inner blocks in one call, then their
// outer blocks in another, so that the SHA extensions always have an independent chain to work on
// (one chain's rounds wait on their own previous results; OpenSSL's transform runs one chain).

/// Whether this process runs the lane kernels: an x86-64 CPU with the SHA extensions, and
/// `OTPKIT_DISABLE_SHA_LANES` unset (which forces OpenSSL's transforms, for tests and comparisons).
enum SHALanes {
    static let available = CSHALanes_available() != 0
}

extension PreparedKey {
    /// Whether ``truncatedValues(lanes:)`` computes its four codes side by side: SHA-1 and SHA-256
    /// when ``SHALanes/available``; SHA-512, whose blocks the kernels do not cover, never.
    var computesInLanes: Bool {
        algorithm != .sha512 && SHALanes.available
    }

    /// ``truncatedValue(counter:)`` of four counters at once. Only for keys that
    /// ``computesInLanes``.
    @inline(__always)
    func truncatedValues(lanes counters: SIMD4<UInt64>) -> SIMD4<UInt32> {
        Self.truncatedValues(lanes: (self, self, self, self), counters: counters)
    }

    /// ``truncatedValue(counter:)`` of four keys of one algorithm, each at its counter. Only for
    /// keys that ``computesInLanes``.
    @inline(__always)
    static func truncatedValues(lanes keys: (PreparedKey, PreparedKey, PreparedKey, PreparedKey), counters: SIMD4<UInt64>) -> SIMD4<UInt32> {
        switch keys.0.algorithm {
        case .sha1: truncatedValues(SHA1Layout.self, lanes: keys, counters: counters)
        case .sha256: truncatedValues(SHA256Layout.self, lanes: keys, counters: counters)
        case .sha512:
            // Not reached (computesInLanes is false); one at a time gives the same values.
            SIMD4(
                keys.0.truncatedValue(counter: counters[0]), keys.1.truncatedValue(counter: counters[1]),
                keys.2.truncatedValue(counter: counters[2]), keys.3.truncatedValue(counter: counters[3]))
        }
    }

    @inline(__always)
    private static func truncatedValues<Hash: LaneLayout>(
        _: Hash.Type, lanes keys: (PreparedKey, PreparedKey, PreparedKey, PreparedKey), counters: SIMD4<UInt64>
    ) -> SIMD4<UInt32> {
        // Four message blocks, then four chaining values; only what is written is read.
        withUnsafeTemporaryAllocation(byteCount: 4 * 64 + 4 * Hash.laneStateByteCount, alignment: 16) { scratch in
            let blocks = scratch.baseAddress!
            let states = blocks + 4 * 64
            Hash.storeLaneState(keys.0.inner, into: states)
            Hash.storeLaneState(keys.1.inner, into: states + Hash.laneStateByteCount)
            Hash.storeLaneState(keys.2.inner, into: states + 2 * Hash.laneStateByteCount)
            Hash.storeLaneState(keys.3.inner, into: states + 3 * Hash.laneStateByteCount)
            for lane in 0..<4 {
                storeCounterBlock(counters[lane], keyedLength: 64, into: blocks + lane * 64)
            }
            Hash.compressFourLanes(states, blocks)
            for lane in 0..<4 {
                Hash.storeOuterMessage(from: states + lane * Hash.laneStateByteCount, into: blocks + lane * 64)
            }
            Hash.storeLaneState(keys.0.outer, into: states)
            Hash.storeLaneState(keys.1.outer, into: states + Hash.laneStateByteCount)
            Hash.storeLaneState(keys.2.outer, into: states + 2 * Hash.laneStateByteCount)
            Hash.storeLaneState(keys.3.outer, into: states + 3 * Hash.laneStateByteCount)
            Hash.compressFourLanes(states, blocks)
            return SIMD4(
                Hash.truncatedValue(states),
                Hash.truncatedValue(states + Hash.laneStateByteCount),
                Hash.truncatedValue(states + 2 * Hash.laneStateByteCount),
                Hash.truncatedValue(states + 3 * Hash.laneStateByteCount)
            )
        }
    }
}

/// A hash the lane kernels compress: chaining values packed one after the other, as CSHALanes
/// takes them, instead of in OpenSSL's contexts.
protocol LaneLayout: HMACBlockLayout {
    /// The bytes of one packed chaining value.
    static var laneStateByteCount: Int { get }
    static func storeLaneState(_ state: ChainingValue, into lane: UnsafeMutableRawPointer)
    static func compressFourLanes(_ states: UnsafeMutableRawPointer, _ blocks: UnsafeMutableRawPointer)
}

extension SHA1Layout: LaneLayout {
    static var laneStateByteCount: Int { 20 }

    @inline(__always)
    static func storeLaneState(_ state: ChainingValue, into lane: UnsafeMutableRawPointer) {
        // A packed lane starts at a multiple of 20 bytes: storeBytes takes unaligned addresses.
        lane.storeBytes(of: state.words.lowHalf.lowHalf, as: SIMD4<UInt32>.self)
        lane.storeBytes(of: state.words[4], toByteOffset: 16, as: UInt32.self)
    }

    @inline(__always)
    static func compressFourLanes(_ states: UnsafeMutableRawPointer, _ blocks: UnsafeMutableRawPointer) {
        CSHALanes_sha1_x4(states.assumingMemoryBound(to: UInt32.self), blocks.assumingMemoryBound(to: UInt8.self))
    }
}

extension SHA256Layout: LaneLayout {
    static var laneStateByteCount: Int { 32 }

    @inline(__always)
    static func storeLaneState(_ state: ChainingValue, into lane: UnsafeMutableRawPointer) {
        lane.storeBytes(of: state.words.lowHalf, as: SIMD8<UInt32>.self)
    }

    @inline(__always)
    static func compressFourLanes(_ states: UnsafeMutableRawPointer, _ blocks: UnsafeMutableRawPointer) {
        CSHALanes_sha256_x4(states.assumingMemoryBound(to: UInt32.self), blocks.assumingMemoryBound(to: UInt8.self))
    }
}
