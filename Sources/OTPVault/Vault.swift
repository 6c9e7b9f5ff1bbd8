internal import OTPCore

/// `totp`'s encrypted vault: a file in Aegis's format, changed safely, and optionally kept
/// unlocked for the login session.
///
/// Reading uses the session when there is one: its snapshot while the file is unchanged, else its
/// master key; only without a session is the credential asked for, so a passphrase prompt appears
/// only when it is needed. Every change goes through ``update(credential:createIfMissing:parameters:_:)``.
public struct Vault: Sendable {
    /// Supplies the credential when the vault must be opened without a session: a key file, or a
    /// passphrase from a descriptor, the environment or the terminal. Called at most once per call.
    public typealias CredentialSource = () throws(VaultError) -> VaultCredential

    /// The file.
    public let file: VaultFile
    /// The session `totp unlock` starts for this file.
    public let session: VaultSession

    /// The vault at `path`; nothing is read yet.
    public init(path: String) {
        file = VaultFile(path: path)
        session = VaultSession(vaultPath: path)
    }

    /// The entries, oldest first.
    ///
    /// - Throws: ``VaultError/notFound(path:)`` when there is no vault yet, or why it did not open.
    public func entries(credential: CredentialSource) throws(VaultError) -> [VaultEntry] {
        CoreDumps.disable()
        let snapshot = session.load().flatMap(VaultSnapshot.init(decoding:))
        if let snapshot, let entries = snapshot.entries, snapshot.stamp == VaultFileStamp(path: file.path) {
            return entries
        }
        guard let (bytes, stamp) = try file.readWithStamp() else { throw .notFound(path: file.path) }
        let opened = try open(bytes, snapshot: snapshot, credential: credential)
        let content = try VaultContent(decoding: opened.content)
        if snapshot != nil { refreshSession(masterKey: opened.masterKey, stamp: stamp, entries: content.entries) }
        return content.entries
    }

    /// Changes the vault: under its lock, reads it again, opens it, lets `body` change its content,
    /// and saves it (``VaultFile``). When `body` throws, nothing is written.
    ///
    /// - Parameter credential: Supplies the credential when the session cannot open the vault.
    /// - Parameter createIfMissing: Whether a missing vault is created, with one slot for the
    ///   credential.
    /// - Parameter parameters: The scrypt cost of a passphrase slot for a vault created here.
    /// - Parameter body: Changes the content; what it returns, this returns.
    /// - Throws: ``VaultError/notFound(path:)`` when there is no vault and `createIfMissing` is
    ///   false, ``VaultError/busy(path:)`` when another process holds the lock too long, why the
    ///   vault did not open, or what `body` throws.
    public func update<Result>(
        credential: CredentialSource,
        createIfMissing: Bool = false,
        parameters: ScryptParameters = .default,
        _ body: (inout VaultContent) throws(VaultError) -> Result
    ) throws(VaultError) -> Result {
        try change(credential: credential, createIfMissing: createIfMissing, parameters: parameters) {
            (_: inout AegisEnvelope, _: VaultMasterKey, content: inout VaultContent) throws(VaultError) -> Result in
            try body(&content)
        }
    }

    /// Makes `newCredential` the vault's only credential of its kind: a slot for it is added,
    /// and the other slots of that kind are removed; the master key, the accounts and the other
    /// kind's slots stay. A new passphrase's slot uses `parameters`, which is how the scrypt
    /// cost is raised.
    ///
    /// - Parameter newCredential: The passphrase or key file that is to open the vault.
    /// - Parameter parameters: The scrypt cost of a new passphrase's slot.
    /// - Parameter credential: Supplies the current credential when the session cannot open the vault.
    /// - Throws: ``VaultError/notFound(path:)`` without a vault, why it did not open, or
    ///   ``VaultError/busy(path:)``.
    public func replaceCredential(
        with newCredential: VaultCredential,
        parameters: ScryptParameters = .default,
        credential: CredentialSource
    ) throws(VaultError) {
        try change(credential: credential, createIfMissing: false, parameters: parameters) {
            (envelope: inout AegisEnvelope, masterKey: VaultMasterKey, _: inout VaultContent) throws(VaultError) in
            let previous = Set(envelope.slots.map(\.uuid))
            let added = try envelope.addingSlot(for: newCredential, masterKey: masterKey, parameters: parameters)
            envelope = try added.removingSlots { slot in previous.contains(slot.uuid) && slot.opens(with: newCredential.kind) }
        }
    }

    /// The one way the file changes: under its lock, read it again, open it (or create it), let
    /// `body` change the envelope and the content, seal and replace it, and refresh the session.
    private func change<Result>(
        credential: CredentialSource,
        createIfMissing: Bool,
        parameters: ScryptParameters,
        _ body: (inout AegisEnvelope, VaultMasterKey, inout VaultContent) throws(VaultError) -> Result
    ) throws(VaultError) -> Result {
        CoreDumps.disable()
        return try file.withExclusiveLock { () throws(VaultError) -> Result in
            let snapshot = session.load().flatMap(VaultSnapshot.init(decoding:))
            let existing = try file.readWithStamp()
            var envelope: AegisEnvelope
            let masterKey: VaultMasterKey
            var content: VaultContent
            if let (bytes, _) = existing {
                let opened = try open(bytes, snapshot: snapshot, credential: credential)
                envelope = opened.envelope
                masterKey = opened.masterKey
                content = try VaultContent(decoding: opened.content)
            } else {
                guard createIfMissing else { throw .notFound(path: file.path) }
                (envelope, masterKey) = try AegisEnvelope.create(credential: try credential(), parameters: parameters)
                content = VaultContent()
            }
            let result = try body(&envelope, masterKey, &content)
            var plaintext = try content.encoded()
            defer { _ = plaintext.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            let sealed = try envelope.sealed(content: plaintext, masterKey: masterKey)
            try file.replace(with: sealed, previous: existing?.bytes)
            if snapshot != nil, let stamp = VaultFileStamp(path: file.path) {
                refreshSession(masterKey: masterKey, stamp: stamp, entries: content.entries)
            }
            return result
        }
    }

    /// Opens the vault with `credential` and keeps it unlocked in the session keyring for
    /// `timeout` seconds: its entry count.
    public func unlock(credential: VaultCredential, timeout: Int = VaultSession.defaultTimeout) throws(VaultError) -> Int {
        CoreDumps.disable()
        guard let (bytes, stamp) = try file.readWithStamp() else { throw .notFound(path: file.path) }
        let opened = try Self.envelope(of: bytes).open(with: credential)
        let content = try VaultContent(decoding: opened.content)
        let snapshot = VaultSnapshot(masterKey: opened.masterKey.storage, stamp: stamp, entries: content.entries)
        try session.store(snapshot.encoded(maximumByteCount: VaultSession.maximumPayloadByteCount), timeout: timeout)
        return content.entries.count
    }

    /// Ends the session: whether there was one.
    @discardableResult
    public func lock() -> Bool {
        session.end()
    }

    /// The entries of the session's snapshot when it describes the file as it is now; `nil`
    /// otherwise. The start-up path of `totp NAME`: two system calls and a `stat`.
    package func sessionEntries() -> [VaultEntry]? {
        CoreDumps.disable()
        guard let snapshot = session.load().flatMap(VaultSnapshot.init(decoding:)), let entries = snapshot.entries,
            snapshot.stamp == VaultFileStamp(path: file.path)
        else { return nil }
        return entries
    }

    private func open(_ bytes: [UInt8], snapshot: VaultSnapshot?, credential: CredentialSource) throws(VaultError) -> OpenedVault {
        let envelope = try Self.envelope(of: bytes)
        if let snapshot, let opened = try? envelope.open(masterKey: VaultMasterKey(storage: snapshot.masterKey)) {
            return opened
        }
        return try envelope.open(with: try credential())
    }

    private static func envelope(of bytes: [UInt8]) throws(VaultError) -> AegisEnvelope {
        switch try AegisEnvelope.parse(bytes) {
        case .encrypted(let envelope): return envelope
        case .plain: throw .malformed("it is a plain (unencrypted) Aegis export, not a vault: import it with `totp import`")
        }
    }

    /// Keeps the session's snapshot current after this process read or wrote the file; the
    /// session's timeout is left as it was.
    private func refreshSession(masterKey: VaultMasterKey, stamp: VaultFileStamp, entries: [VaultEntry]) {
        let snapshot = VaultSnapshot(masterKey: masterKey.storage, stamp: stamp, entries: entries)
        session.update(snapshot.encoded(maximumByteCount: VaultSession.maximumPayloadByteCount))
    }
}
