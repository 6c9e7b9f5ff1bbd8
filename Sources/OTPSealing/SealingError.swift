/// An error thrown when a sealing key cannot be loaded or a sealed secret cannot be opened.
///
/// No case carries key material or secret bytes; the messages name the file, the environment
/// variable or the key id, and say how to fix the problem.
public enum SealingError: Error, Hashable, Sendable {
    /// No key was given: neither a key file nor the environment variable.
    case missingKey(environmentVariable: String)
    /// A key is not 32 bytes long.
    case invalidKeyLength(Int)
    /// A key file or variable holds neither 32 raw bytes nor 64 hexadecimal characters.
    case invalidKeyEncoding(source: String)
    /// A key file cannot be read.
    case unreadableKeyFile(path: String, reason: String)
    /// A new key file cannot be written (it exists already, or the directory is not writable).
    case unwritableKeyFile(path: String, reason: String)
    /// The same key appears twice in a keyring.
    case duplicateKey(SealingKeyID)
    /// A sealed secret names a key that is not in the keyring.
    case unknownKey(SealingKeyID)
    /// A sealed secret is too short or has a format version this code does not know.
    case malformedSealedSecret(String)
    /// AES-GCM authentication failed: the sealed bytes were altered or belong to another enrollment.
    case authenticationFailed
    /// OpenSSL reported a failure.
    case cryptoFailure(String)
}

extension SealingError: CustomStringConvertible {
    /// A one-line message saying what was wrong and how to fix it.
    public var description: String {
        switch self {
        case .missingKey(let variable):
            "no sealing key: pass a key file or set \(variable) to 64 hexadecimal characters (create one with `openssl rand -hex 32`)"
        case .invalidKeyLength(let count):
            "sealing key is \(count) bytes: AES-256 needs exactly 32 (create one with `openssl rand -hex 32`)"
        case .invalidKeyEncoding(let source):
            "sealing key in \(source) is neither 32 raw bytes nor 64 hexadecimal characters (create one with `openssl rand -hex 32`)"
        case .unreadableKeyFile(let path, let reason):
            "cannot read sealing key file \(path): \(reason)"
        case .unwritableKeyFile(let path, let reason):
            "cannot write sealing key file \(path): \(reason)"
        case .duplicateKey(let id):
            "sealing key \(id) is given twice"
        case .unknownKey(let id):
            "data is sealed under key \(id), which is not among the keys given: pass that key (as the current or a previous key)"
        case .malformedSealedSecret(let reason):
            "malformed sealed secret: \(reason)"
        case .authenticationFailed:
            "sealed secret failed authentication: it was altered or copied from another enrollment"
        case .cryptoFailure(let what):
            "OpenSSL failure: \(what)"
        }
    }
}
