internal import CCryptoOpenSSL
internal import OTPCore
internal import Synchronization

/// Unguessable ids for pending enrollments, pending sign-in credentials, factors and sessions:
/// 15 characters drawn uniformly from `A–Z a–z 0–9` with OpenSSL's CSPRNG, 89 bits.
///
/// Fifteen characters is what Swift stores inside a `String` value itself: such ids cost no heap
/// allocation, no reference counting and no pointer chase when a store's tables compare keys,
/// which made sign-in about a fifth faster than 26-character (128-bit) Base32 ids. 89 bits is
/// well above the 64 that OWASP asks of session ids; no id grants anything alone (a session id is
/// honoured only for the user the host authenticated, a credential id only inside its resolver).
/// No `-` or `_`, so an id never reads as a command-line option.
///
/// One `RAND_bytes` call costs about a microsecond (DRBG lock, fork check), which is most of an id
/// on the sign-in hot path; drawing 4 KiB at a time amortises it. Used bytes are wiped from the
/// batch as they are handed out.
final class RandomIDs: Sendable {
    private struct Batch: ~Copyable {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: RandomIDs.batchByteCount)
        var offset = RandomIDs.batchByteCount

        deinit {
            OPENSSL_cleanse(bytes.baseAddress, bytes.count)
            bytes.deallocate()
        }

        /// A new id, refilling the batch as it is used up (`nil` if OpenSSL fails).
        mutating func nextID() -> String? {
            var failed = false
            let id = RandomIDs.alphabet.withUTF8Buffer { alphabet in
                String(unsafeUninitializedCapacity: RandomIDs.length) { output in
                    var written = 0
                    while written < output.count {
                        if offset == bytes.count {
                            guard SecureRandom.fill(UnsafeMutableRawBufferPointer(bytes)) else {
                                failed = true
                                return 0
                            }
                            offset = 0
                        }
                        // Each byte gives at most one character: take no more than are missing.
                        let end = min(bytes.count, offset + output.count - written)
                        for byte in bytes[offset..<end] where byte < RandomIDs.rejectionBound {
                            output[written] = alphabet[Int(byte % 62)]
                            written += 1
                        }
                        UnsafeMutableBufferPointer(rebasing: bytes[offset..<end]).update(repeating: 0)
                        offset = end
                    }
                    return written
                }
            }
            return failed ? nil : id
        }
    }

    static let batchByteCount = 4096
    static let length = 15
    /// Literals rather than stored arrays: a `static let` array costs a lazy-initialisation check
    /// at every use, which was most of an id's cost.
    static var alphabet: StaticString { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" }
    /// Bytes at or above 4 × 62 are drawn again, so that `byte % 62` is uniform.
    static var rejectionBound: UInt8 { 248 }

    private let batch = Mutex(Batch())

    /// A new id.
    func next() throws(AuthError) -> String {
        guard let id = batch.withLock({ $0.nextID() }) else {
            throw AuthError(.internalError, "could not generate an id: OpenSSL's RAND_bytes failed")
        }
        return id
    }
}
