package import OTPCore

/// The random 32-byte key that encrypts a vault's content, wrapped once per slot.
///
/// Wiped on release and never printed.
public struct VaultMasterKey: Sendable {
    /// The key length (AES-256).
    public static let byteCount = 32

    package let storage: SecureBytes

    /// A new key from OpenSSL's CSPRNG.
    /// - Throws: ``VaultError/cryptoFailure(_:)`` when the generator fails.
    public static func random() throws(VaultError) -> VaultMasterKey {
        var succeeded = false
        let storage = SecureBytes(count: byteCount) { buffer in
            succeeded = SecureRandom.fill(buffer)
            return byteCount
        }
        guard succeeded else { throw .cryptoFailure("RAND_bytes could not produce a master key") }
        return VaultMasterKey(storage: storage)
    }

    /// A key restored from its 32 bytes (an unlocked session's copy).
    /// - Throws: ``VaultError/malformed(_:)`` for any other length.
    package init(bytes: some Collection<UInt8>) throws(VaultError) {
        guard bytes.count == Self.byteCount else { throw .malformed("a master key is \(bytes.count) bytes instead of 32") }
        storage = SecureBytes(count: Self.byteCount) { buffer in
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
            return Self.byteCount
        }
    }

    package init(storage: SecureBytes) {
        self.storage = storage
    }

    /// Calls `body` with the key's bytes. Do not let the pointer escape.
    package func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try storage.withUnsafeBytes(body)
    }
}

extension VaultMasterKey: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never the key.
    public var description: String { "VaultMasterKey(redacted)" }
    /// Never the key.
    public var debugDescription: String { description }
}
