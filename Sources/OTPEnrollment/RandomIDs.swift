internal import CCryptoOpenSSL
import OTPCore
internal import Synchronization

/// Unguessable ids (128 bits from OpenSSL's CSPRNG, in Base32) for pending enrollments, pending
/// sign-in credentials, factors and sessions.
///
/// One `RAND_bytes` call costs about a microsecond (DRBG lock, fork check), which is most of an id
/// on the sign-in hot path; drawing 4 KiB at a time and handing out 16 bytes per id amortises it.
/// Used bytes are wiped from the batch as they are handed out.
final class RandomIDs: Sendable {
    private struct Batch: ~Copyable {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: RandomIDs.batchByteCount, alignment: 16)
        var offset = RandomIDs.batchByteCount

        deinit {
            OPENSSL_cleanse(bytes.baseAddress, bytes.count)
            bytes.deallocate()
        }
    }

    static let batchByteCount = 4096
    static let idByteCount = 16
    static let idCharacterCount = Base32.encodedCount(byteCount: idByteCount)

    private let batch = Mutex(Batch())

    /// A new id.
    func next() throws(AuthError) -> String {
        let id: String? = batch.withLock { batch in
            if batch.offset == Self.batchByteCount {
                guard RAND_bytes(batch.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(Self.batchByteCount)) == 1 else {
                    return nil
                }
                batch.offset = 0
            }
            let slice = UnsafeMutableRawBufferPointer(rebasing: batch.bytes[batch.offset..<(batch.offset + Self.idByteCount)])
            batch.offset += Self.idByteCount
            defer { OPENSSL_cleanse(slice.baseAddress, slice.count) }
            // Straight into the String's storage: the generic `Base32.encode(_:)` costs as much again.
            return String(unsafeUninitializedCapacity: Self.idCharacterCount) { output in
                Base32.encode(UnsafeRawBufferPointer(slice), into: output)
            }
        }
        guard let id else { throw AuthError(.internalError, "could not generate an id: OpenSSL's RAND_bytes failed") }
        return id
    }
}
