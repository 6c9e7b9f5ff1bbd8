/// An enrollment secret sealed with AES-256-GCM, in the form a store keeps.
///
/// Layout (format 1): one version byte, the 8-byte ``SealingKeyID`` of the key that sealed it,
/// a 12-byte random nonce, the ciphertext (as long as the secret) and the 16-byte GCM tag. The
/// version byte, the key id and the enrollment id are authenticated as associated data, so a value
/// copied onto another enrollment, or relabelled with another key id, fails to open.
public struct SealedSecret: Hashable, Sendable {
    /// The layout version this code writes.
    public static let currentFormat: UInt8 = 1
    static let nonceByteCount = 12
    static let tagByteCount = 16
    static let headerByteCount = 1 + SealingKeyID.byteCount + nonceByteCount
    static let minimumCiphertextByteCount = 1

    /// The sealed bytes, safe to store in the clear.
    public let bytes: [UInt8]

    /// Wraps bytes read back from storage, checking their layout.
    /// - Throws: ``SealingError/malformedSealedSecret(_:)`` when the bytes cannot be a sealed secret.
    public init(bytes: [UInt8]) throws(SealingError) {
        guard let version = bytes.first else { throw .malformedSealedSecret("empty") }
        guard version == Self.currentFormat else {
            throw .malformedSealedSecret("unknown format version \(version)")
        }
        guard bytes.count >= Self.headerByteCount + Self.minimumCiphertextByteCount + Self.tagByteCount else {
            throw .malformedSealedSecret("\(bytes.count) bytes is too short")
        }
        self.bytes = bytes
    }

    init(validatedBytes bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The id of the key this value was sealed under.
    public var keyID: SealingKeyID {
        SealingKeyID(bytes: bytes[1...SealingKeyID.byteCount])
    }

    var ciphertextByteCount: Int { bytes.count - Self.headerByteCount - Self.tagByteCount }
}

extension SealedSecret: CustomStringConvertible {
    /// The length and key id only.
    public var description: String { "SealedSecret(\(bytes.count) bytes, key \(keyID))" }
}
