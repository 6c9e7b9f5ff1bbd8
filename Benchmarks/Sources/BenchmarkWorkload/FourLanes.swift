import CSHALanesHeader
public import OTPCore

/// The limit for independent messages: four chains interleaved on the SHA extensions, OTPKit's
/// lane kernels called directly (SHA-1 and SHA-256 only).
public enum FourLanes {
    /// Compresses `blocks` blocks (a multiple of four) of `algorithm` from `buffer`, four chains
    /// of `blocks / 4`, and returns a word of the result for `blackHole`.
    public static func compress(_ algorithm: OTPAlgorithm, blocks: Int, from buffer: UnsafeRawPointer) -> UInt32 {
        precondition(algorithm != .sha512, "the lane kernels cover SHA-1 and SHA-256")
        var states = [UInt32](repeating: 0x6745_2301, count: 4 * 8)
        let block = buffer.assumingMemoryBound(to: UInt8.self)
        let kernel = algorithm == .sha1 ? CSHALanes_sha1_x4 : CSHALanes_sha256_x4
        for _ in 0..<(blocks / 4) {
            kernel(&states, block)
        }
        return states[0]
    }
}
