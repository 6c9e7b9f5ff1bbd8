internal import CCryptoOpenSSL
package import OTPCore

/// A 32-byte AES-256 key that seals enrollment secrets at rest.
///
/// The operator supplies it (``init(contentsOfFile:)``, ``init(environmentVariable:)`` or
/// ``init(bytes:)``); OTPKit never generates one silently, because a key nobody kept makes every
/// sealed secret unrecoverable. The bytes are wiped on release and never printed: `description`
/// shows only the key's ``id``.
public struct SealingKey: Sendable {
    /// The key length AES-256 needs.
    public static let byteCount = 32

    /// The environment variable the command-line tool reads the key from.
    public static let defaultEnvironmentVariable = "OTPKIT_SEALING_KEY"

    package let storage: SecureBytes

    /// The key's public fingerprint, stored with each value sealed under it.
    public let id: SealingKeyID

    /// Creates a key from exactly 32 raw bytes.
    /// - Throws: ``SealingError/invalidKeyLength(_:)`` for any other length.
    public init(bytes: some Collection<UInt8>) throws(SealingError) {
        guard bytes.count == Self.byteCount else { throw .invalidKeyLength(bytes.count) }
        let storage = SecureBytes(count: Self.byteCount) { buffer in
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
            return Self.byteCount
        }
        try self.init(storage: storage)
    }

    init(storage: SecureBytes) throws(SealingError) {
        guard storage.count == Self.byteCount else { throw .invalidKeyLength(storage.count) }
        self.storage = storage
        id = try Self.fingerprint(of: storage)
    }

    private static func fingerprint(of storage: SecureBytes) throws(SealingError) -> SealingKeyID {
        let label = Array("OTPKit sealing key id v1".utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = storage.withUnsafeBytes { key in
            HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), label, label.count, &digest, &length)
        }
        guard result != nil, length >= UInt32(SealingKeyID.byteCount) else {
            throw .cryptoFailure("HMAC-SHA256 could not fingerprint the sealing key")
        }
        return SealingKeyID(bytes: digest)
    }
}

extension SealingKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's id only; the key itself is never shown.
    public var description: String { "SealingKey(id: \(id), redacted)" }
    public var debugDescription: String { description }
}
