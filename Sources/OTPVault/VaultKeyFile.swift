package import OTPCore

/// A 32-byte key read from a file, for a vault's raw (key-file) slots.
///
/// The same reader as OTPSealing's sealing key: 32 raw bytes or 64 hexadecimal characters, as
/// `totp keygen` writes them. The key is wiped on release and never printed.
public struct VaultKeyFile: Sendable {
    /// The file the key was read from, for messages.
    public let path: String
    package let storage: SecureBytes

    /// Reads the key in the file at `path`, which group and others must not be able to access.
    /// - Throws: ``VaultError/keyFileMissing(path:)``, ``VaultError/keyFileNotPrivate(path:mode:)``,
    ///   ``VaultError/keyFileInvalid(path:)``, ``VaultError/keyFileWrongLength(path:byteCount:)`` or
    ///   ``VaultError/keyFileUnreadable(path:reason:)``.
    public static func load(path: String) throws(VaultError) -> VaultKeyFile {
        do {
            return VaultKeyFile(path: path, storage: try KeyFile.read(path: path, requirePrivate: true))
        } catch {
            switch error {
            case .unreadable(let failure) where failure.code == 2:  // ENOENT
                throw .keyFileMissing(path: path)
            case .unreadable(let failure): throw .keyFileUnreadable(path: path, reason: failure.description)
            case .tooLarge: throw .keyFileUnreadable(path: path, reason: "larger than a key file can be")
            case .notPrivate(let mode): throw .keyFileNotPrivate(path: path, mode: mode)
            case .invalidEncoding: throw .keyFileInvalid(path: path)
            case .wrongLength(let count): throw .keyFileWrongLength(path: path, byteCount: count)
            }
        }
    }

    package init(path: String, storage: SecureBytes) {
        self.path = path
        self.storage = storage
    }
}

extension VaultKeyFile: CustomStringConvertible, CustomDebugStringConvertible {
    /// The path only; the key itself is never shown.
    public var description: String { "VaultKeyFile(\(path), redacted)" }
    /// The path only; the key itself is never shown.
    public var debugDescription: String { description }
}
