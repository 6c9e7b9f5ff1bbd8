/// An error thrown when a vault cannot be opened, created or written.
///
/// No case carries key material, a passphrase or vault content: the messages name what was wrong
/// (and a key file's path) and say how to fix it.
public enum VaultError: Error, Hashable, Sendable {
    /// Every slot of the credential's kind refused it: a wrong passphrase or another key file.
    ///
    /// A slot whose wrapped key was altered refuses every credential, so it looks the same.
    case wrongCredential(VaultCredential.Kind)
    /// The vault has no slot of the credential's kind.
    case noSlot(for: VaultCredential.Kind)
    /// A slot opened, but the content failed authentication: the file was damaged or modified.
    case damaged
    /// The master key given does not open the content (it belongs to another vault, or the vault
    /// was re-keyed since it was unlocked).
    case wrongMasterKey
    /// The file is not a vault, or a field is missing or has the wrong form; says which.
    case malformed(String)
    /// The file is larger than any vault can be.
    case fileTooLarge(byteCount: Int, limit: Int)
    /// The vault file's `version` is newer than this code reads.
    case unsupportedVersion(Int, newest: Int)
    /// The content's `version` is newer than this code reads.
    case unsupportedContentVersion(Int, newest: Int)
    /// A slot has a `type` this code does not know.
    case unsupportedSlotType(Int)
    /// The header lists more slots than any vault needs.
    case tooManySlots(count: Int, limit: Int)
    /// scrypt parameters outside the accepted bounds, refused before any key is derived.
    case scryptParametersOutOfRange(n: Int, r: Int, p: Int)
    /// Removing these slots would leave none that a passphrase or key file opens.
    case lastSlot
    /// The key file does not exist.
    case keyFileMissing(path: String)
    /// The key file cannot be read; `reason` is the system's message.
    case keyFileUnreadable(path: String, reason: String)
    /// Group or others may access the key file.
    case keyFileNotPrivate(path: String, mode: UInt32)
    /// The key file holds neither 32 raw bytes nor 64 hexadecimal characters.
    case keyFileInvalid(path: String)
    /// The key file's hexadecimal digits decode to this many bytes instead of 32.
    case keyFileWrongLength(path: String, byteCount: Int)
    /// OpenSSL reported a failure (random bytes, a cipher, scrypt's memory).
    case cryptoFailure(String)
    /// There is no vault at the path yet.
    case notFound(path: String)
    /// Another process holds the vault's lock for longer than the wait allows.
    case busy(path: String)
    /// Reading, writing or replacing the vault file failed; the message names the file and the cause.
    case fileFailure(String)
    /// The kernel keyring refused to keep or give back an unlocked vault's key.
    case sessionFailure(String)
    /// The decrypted content is not a vault database this version can keep.
    case malformedContent(String)
    /// No passphrase could be read (no terminal, an empty or unreadable source).
    case passphraseUnavailable(String)
}

extension VaultError: CustomStringConvertible {
    /// A one-line message saying what was wrong and how to fix it.
    public var description: String {
        switch self {
        case .wrongCredential(.passphrase):
            "the passphrase does not open this vault"
        case .wrongCredential(.keyFile):
            "the key file does not open this vault"
        case .noSlot(for: .passphrase):
            "this vault has no passphrase slot: unlock it with its key file"
        case .noSlot(for: .keyFile):
            "this vault has no key-file slot: unlock it with its passphrase"
        case .damaged:
            "the vault file is damaged or was modified: its content fails authentication (restore it from a backup)"
        case .wrongMasterKey:
            "the unlocked key does not open this vault (it was re-keyed or replaced): unlock it again"
        case .malformed(let what):
            "the vault file is malformed: \(what)"
        case .fileTooLarge(let count, let limit):
            "the vault file is \(count) bytes, more than the \(limit) a vault can be"
        case .unsupportedVersion(let version, let newest):
            "the vault file has version \(version); this version of totp reads up to \(newest): upgrade totp"
        case .unsupportedContentVersion(let version, let newest):
            "the vault's content has version \(version); this version of totp reads up to \(newest): upgrade totp"
        case .unsupportedSlotType(let type):
            "the vault has a key slot of unknown type \(type): upgrade totp, or remove the slot in the app that added it"
        case .tooManySlots(let count, let limit):
            "the vault lists \(count) key slots, more than the \(limit) accepted"
        case .scryptParametersOutOfRange(let n, let r, let p):
            "scrypt parameters N=\(n), r=\(r), p=\(p) are out of range: N must be a power of two from 2^14 to 2^20, r 8 to 32, p 1 to 16"
        case .lastSlot:
            "removing these slots would leave no passphrase or key-file slot to open the vault"
        case .keyFileMissing(let path):
            "key file \(path) does not exist"
        case .keyFileUnreadable(let path, let reason):
            "cannot read key file \(path): \(reason)"
        case .keyFileNotPrivate(let path, let mode):
            "key file \(path) has mode \(String(mode, radix: 8)), which lets others read it: run chmod 600 \(path)"
        case .keyFileInvalid(let path):
            "key file \(path) holds neither 32 raw bytes nor 64 hexadecimal characters (create one with `totp keygen`)"
        case .keyFileWrongLength(let path, let count):
            "key file \(path) holds a \(count)-byte key: it must be 32 bytes (create one with `totp keygen`)"
        case .notFound(let path):
            "there is no vault at \(path): add an account with totp add to create it, or choose the vault with --vault or TOTP_VAULT"
        case .busy(let path):
            "the vault \(path) is busy: another totp is changing it; try again"
        case .fileFailure(let reason), .sessionFailure(let reason):
            reason
        case .malformedContent(let reason):
            "the vault's content is malformed: \(reason)"
        case .passphraseUnavailable(let reason):
            "no vault passphrase: \(reason)"
        case .cryptoFailure(let what):
            "OpenSSL failure: \(what)"
        }
    }
}
