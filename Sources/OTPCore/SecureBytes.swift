internal import CCryptoOpenSSL

/// Heap storage for key material that is wiped with `OPENSSL_cleanse` on release.
///
/// Immutable after initialization, which is what makes the `@unchecked Sendable` sound. Package-visible so
/// other modules' key material (the sealing key in OTPSealing) gets the same wiping.
package final class SecureBytes: @unchecked Sendable {
    private let memory: UnsafeMutableRawBufferPointer
    package let count: Int

    /// Allocates `capacity` zeroed bytes and lets `initialize` fill a prefix, returning its length.
    /// When `initialize` throws, the bytes are wiped and released and its error is rethrown.
    package init<Failure: Error>(
        count capacity: Int,
        initialize: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
        do {
            count = min(try initialize(UnsafeMutableRawBufferPointer(rebasing: memory[..<capacity])), capacity)
        } catch {
            OPENSSL_cleanse(memory.baseAddress, memory.count)
            memory.deallocate()
            throw error
        }
        self.memory = memory
    }

    package func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: memory[..<count]))
    }

    deinit {
        OPENSSL_cleanse(memory.baseAddress, memory.count)
        memory.deallocate()
    }
}
