/// One way into a vault: the master key wrapped (AES-256-GCM) under a key that a credential gives.
///
/// The wrapped key and its nonce and tag stay inside; what is public is which credential the slot
/// takes.
public struct VaultSlot: Hashable, Sendable {
    /// What a slot's key comes from.
    public enum Kind: Hashable, Sendable {
        /// A key file's 32 bytes, used as they are (Aegis slot type 0).
        case raw
        /// scrypt of a passphrase with these parameters and the slot's salt (Aegis slot type 1).
        case password(ScryptParameters)
        /// A key in an Android phone's keystore (Aegis slot type 2): kept so the phone still opens
        /// the vault, never opened here.
        case biometric
    }

    /// The slot's UUID (lowercase), as Aegis writes it.
    public let uuid: String
    /// What opens the slot.
    public let kind: Kind

    /// The master key wrapped under the slot key.
    let wrappedKey: [UInt8]
    let nonce: [UInt8]
    let tag: [UInt8]
    /// The scrypt salt of a password slot; empty for other kinds.
    let salt: [UInt8]
    /// Aegis's `repaired` and `is_backup` flags of a password slot, written back as read.
    let repaired: Bool?
    let isBackup: Bool?

    init(uuid: String, kind: Kind, wrappedKey: [UInt8], nonce: [UInt8], tag: [UInt8], salt: [UInt8], repaired: Bool?, isBackup: Bool?) {
        self.uuid = uuid
        self.kind = kind
        self.wrappedKey = wrappedKey
        self.nonce = nonce
        self.tag = tag
        self.salt = salt
        self.repaired = repaired
        self.isBackup = isBackup
    }

    /// Whether a credential of `credentialKind` is tried against this slot.
    func opens(with credentialKind: VaultCredential.Kind) -> Bool {
        switch (kind, credentialKind) {
        case (.raw, .keyFile), (.password, .passphrase): true
        default: false
        }
    }
}
