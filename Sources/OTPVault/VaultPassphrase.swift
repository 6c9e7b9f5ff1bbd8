package import OTPCore

/// A vault passphrase: its UTF-8 bytes in storage wiped on release, never printed.
///
/// The bytes are used as given, without Unicode normalization, as Aegis does.
public struct VaultPassphrase: Sendable {
    package let storage: SecureBytes

    /// Wraps the passphrase's UTF-8 bytes (read from a terminal, a file or a descriptor).
    public init(utf8 bytes: some Collection<UInt8>) {
        storage = SecureBytes(count: bytes.count) { buffer in
            _ = buffer.initializeMemory(as: UInt8.self, from: bytes)
            return bytes.count
        }
    }

    /// Whether the passphrase is empty; callers refuse an empty passphrase for a new vault.
    /// A passphrase already in wiped storage, such as one read byte by byte from a terminal.
    package init(storage: SecureBytes) {
        self.storage = storage
    }

    public var isEmpty: Bool { storage.count == 0 }
}

extension VaultPassphrase: CustomStringConvertible, CustomDebugStringConvertible {
    /// Never the passphrase.
    public var description: String { "VaultPassphrase(redacted)" }
    /// Never the passphrase.
    public var debugDescription: String { description }
}
