/// What opens a vault: a passphrase (an Aegis password slot, scrypt) or a key file (an Aegis raw
/// slot, no key derivation).
public enum VaultCredential: Sendable {
    /// A passphrase, tried against the vault's password slots.
    case passphrase(VaultPassphrase)
    /// A key file's 32-byte key, tried against the vault's raw slots.
    case keyFile(VaultKeyFile)

    /// The kinds of credential, as errors name them.
    public enum Kind: Hashable, Sendable {
        /// A passphrase.
        case passphrase
        /// A key file.
        case keyFile
    }

    /// This credential's kind.
    public var kind: Kind {
        switch self {
        case .passphrase: .passphrase
        case .keyFile: .keyFile
        }
    }
}
