/// An encrypted vault opened: its content, the master key that opened it and the envelope.
public struct OpenedVault: Sendable {
    /// The envelope the content came from; seal new content with ``AegisEnvelope/sealed(content:masterKey:)``.
    public let envelope: AegisEnvelope
    /// The master key, to seal the next version or to keep for an unlocked session.
    public let masterKey: VaultMasterKey
    /// The plaintext content: the JSON bytes of the vault's `db` object.
    ///
    /// An array rather than wiped storage because decoding it copies it into ordinary memory
    /// anyway; the caller drops it as soon as it has decoded it.
    public let content: [UInt8]
}
