internal import FoundationEssentials
internal import OTPCore

/// An encrypted Aegis vault file: key slots and the encrypted content, in Aegis's format
/// (`docs/vault.md`), so that the file `totp` keeps is itself a backup Aegis imports.
///
/// A random master key encrypts the content (AES-256-GCM); each slot wraps that key under a key a
/// credential gives: scrypt of a passphrase for a password slot, a key file's bytes for a raw slot.
/// As in Aegis, only the wrapped keys and the content are authenticated; a change to the rest of the
/// header (scrypt parameters, salts, nonces) makes a tag fail, and the scrypt parameters are bounded
/// before any derivation, so a tampered file cannot make `totp` spend unbounded memory.
public struct AegisEnvelope: Sendable {
    /// The vault file version this code reads and writes (Aegis's `VaultFile.VERSION`).
    public static let version = 1
    /// The largest file ``parse(_:)`` reads.
    public static let maximumFileByteCount = 64 << 20
    /// The most slots a header may list.
    public static let maximumSlotCount = 64

    /// The content as stored: ciphertext with its nonce and detached tag.
    struct SealedContent: Sendable {
        let nonce: [UInt8]
        let tag: [UInt8]
        let ciphertext: [UInt8]
    }

    /// The key slots, in file order.
    public let slots: [VaultSlot]
    /// `nil` for an envelope just created, before its first ``sealed(content:masterKey:)``.
    let content: SealedContent?

    init(slots: [VaultSlot], content: SealedContent?) {
        self.slots = slots
        self.content = content
    }

    /// Reads an Aegis vault file, plain or encrypted, without decrypting anything.
    ///
    /// The size, the version, the slot count and every slot's scrypt parameters are checked here,
    /// before any key is derived.
    /// - Throws: ``VaultError/fileTooLarge(byteCount:limit:)``, ``VaultError/unsupportedVersion(_:newest:)``,
    ///   ``VaultError/tooManySlots(count:limit:)``, ``VaultError/unsupportedSlotType(_:)``,
    ///   ``VaultError/scryptParametersOutOfRange(n:r:p:)`` or ``VaultError/malformed(_:)``.
    public static func parse(_ file: [UInt8]) throws(VaultError) -> ParsedAegisFile {
        guard file.count <= maximumFileByteCount else { throw .fileTooLarge(byteCount: file.count, limit: maximumFileByteCount) }
        let data = Data(file)
        let decoder = AegisJSON.decoder()
        let version: Int
        do {
            version = try decoder.decode(AegisJSON.Versioned.self, from: data).version
        } catch {
            throw .malformed(AegisJSON.describe(error))
        }
        guard version <= Self.version else { throw .unsupportedVersion(version, newest: Self.version) }
        guard version == Self.version else { throw .malformed("version \(version) is not a vault version") }
        let decoded: AegisJSON.File
        do {
            decoded = try decoder.decode(AegisJSON.File.self, from: data)
        } catch {
            throw .malformed(AegisJSON.describe(error))
        }
        switch decoded.db {
        case .plain(let content):
            guard decoded.header.slots == nil, decoded.header.params == nil else {
                throw .malformed("db is not encrypted, yet the header has key slots")
            }
            do {
                return .plain(content: Array(try AegisJSON.encoder().encode(content)))
            } catch {
                throw .malformed("db cannot be re-encoded")
            }
        case .encrypted(let base64):
            guard let slots = decoded.header.slots, let params = decoded.header.params else {
                throw .malformed("db is encrypted, yet header.slots or header.params is missing")
            }
            guard slots.count <= maximumSlotCount else { throw .tooManySlots(count: slots.count, limit: maximumSlotCount) }
            guard !slots.isEmpty else { throw .malformed("header.slots is empty") }
            var parsedSlots: [VaultSlot] = []
            for (index, slot) in slots.enumerated() {
                parsedSlots.append(try parseSlot(slot, at: index))
            }
            guard let ciphertext = Data(base64Encoded: base64) else { throw .malformed("db is not Base64") }
            let content = SealedContent(
                nonce: try hex(params.nonce, byteCount: AESGCM.nonceByteCount, field: "header.params.nonce"),
                tag: try hex(params.tag, byteCount: AESGCM.tagByteCount, field: "header.params.tag"),
                ciphertext: Array(ciphertext))
            return .encrypted(AegisEnvelope(slots: parsedSlots, content: content))
        }
    }

    private static func parseSlot(_ slot: AegisJSON.Slot, at index: Int) throws(VaultError) -> VaultSlot {
        let field = "header.slots[\(index)]"
        let kind: VaultSlot.Kind
        var salt: [UInt8] = []
        switch slot.type {
        case 0: kind = .raw
        case 1:
            guard let n = slot.n, let r = slot.r, let p = slot.p, let saltText = slot.salt else {
                throw .malformed("\(field) is a password slot without n, r, p and salt")
            }
            kind = .password(try ScryptParameters(n: n, r: r, p: p))
            guard (2...2048).contains(saltText.utf8.count) else { throw .malformed("\(field).salt has an unusable length") }
            salt = try hex(saltText, byteCount: saltText.utf8.count / 2, field: "\(field).salt")
        case 2: kind = .biometric
        default: throw .unsupportedSlotType(slot.type)
        }
        guard (1...128).contains(slot.uuid.utf8.count) else { throw .malformed("\(field).uuid has an unusable length") }
        return VaultSlot(
            uuid: slot.uuid, kind: kind,
            wrappedKey: try hex(slot.key, byteCount: VaultMasterKey.byteCount, field: "\(field).key"),
            nonce: try hex(slot.keyParams.nonce, byteCount: AESGCM.nonceByteCount, field: "\(field).key_params.nonce"),
            tag: try hex(slot.keyParams.tag, byteCount: AESGCM.tagByteCount, field: "\(field).key_params.tag"),
            salt: salt, repaired: slot.repaired, isBackup: slot.isBackup)
    }

    static func hex(_ text: String, byteCount: Int, field: String) throws(VaultError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let utf8 = Array(text.utf8)
        guard utf8.count == 2 * byteCount, bytes.withUnsafeMutableBytes({ Hex.decode(utf8, into: $0) }) else {
            throw .malformed("\(field) is not \(byteCount) bytes of hexadecimal")
        }
        return bytes
    }

    /// Opens the vault with a passphrase or a key file: every slot of the credential's kind is
    /// tried until one unwraps the master key, which then decrypts the content.
    /// - Throws: ``VaultError/noSlot(for:)`` when no slot takes this kind of credential,
    ///   ``VaultError/wrongCredential(_:)`` when none of them opens, ``VaultError/damaged`` when a
    ///   slot opens but the content fails authentication.
    public func open(with credential: VaultCredential) throws(VaultError) -> OpenedVault {
        let masterKey = try unwrapMasterKey(with: credential)
        do {
            return try open(masterKey: masterKey)
        } catch .wrongMasterKey {
            throw .damaged
        }
    }

    /// Opens the content with a master key kept from an earlier unlock.
    /// - Throws: ``VaultError/wrongMasterKey`` when the key does not decrypt the content.
    public func open(masterKey: VaultMasterKey) throws(VaultError) -> OpenedVault {
        let plaintext = try decryptContent(masterKey: masterKey)
        return OpenedVault(envelope: self, masterKey: masterKey, content: plaintext.withUnsafeBytes { Array($0) })
    }

    func decryptContent(masterKey: VaultMasterKey) throws(VaultError) -> SecureBytes {
        guard let content else { throw .malformed("it holds no content yet") }
        do {
            return try masterKey.withUnsafeBytes { key throws(AESGCM.Failure) in
                try content.ciphertext.withBytes { ciphertext throws(AESGCM.Failure) in
                    try content.tag.withBytes { tag throws(AESGCM.Failure) in
                        try content.nonce.withBytes { nonce throws(AESGCM.Failure) in
                            try AESGCM.open(ciphertext, tag: tag, key: key, nonce: nonce)
                        }
                    }
                }
            }
        } catch .authenticationFailed {
            throw .wrongMasterKey
        } catch {
            throw .cryptoFailure(error.description)
        }
    }

    private func unwrapMasterKey(with credential: VaultCredential) throws(VaultError) -> VaultMasterKey {
        let candidates = slots.filter { $0.opens(with: credential.kind) }
        guard !candidates.isEmpty else { throw .noSlot(for: credential.kind) }
        for slot in candidates {
            let slotKey = try SlotKey.derive(for: slot.kind, salt: slot.salt, credential: credential)
            let unwrapped: SecureBytes
            do {
                unwrapped = try slotKey.withUnsafeBytes { key throws(AESGCM.Failure) in
                    try slot.wrappedKey.withBytes { wrapped throws(AESGCM.Failure) in
                        try slot.tag.withBytes { tag throws(AESGCM.Failure) in
                            try slot.nonce.withBytes { nonce throws(AESGCM.Failure) in
                                try AESGCM.open(wrapped, tag: tag, key: key, nonce: nonce)
                            }
                        }
                    }
                }
            } catch .authenticationFailed {
                continue
            } catch {
                throw .cryptoFailure(error.description)
            }
            return VaultMasterKey(storage: unwrapped)
        }
        throw .wrongCredential(credential.kind)
    }
}
