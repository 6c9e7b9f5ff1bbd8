internal import FoundationEssentials
internal import OTPCore

extension AegisEnvelope {
    /// A new envelope: a random master key wrapped in one slot of the credential's kind.
    ///
    /// It holds no content until ``sealed(content:masterKey:)`` writes the first file.
    public static func create(
        credential: VaultCredential,
        parameters: ScryptParameters = .default
    ) throws(VaultError) -> (envelope: AegisEnvelope, masterKey: VaultMasterKey) {
        let masterKey = try VaultMasterKey.random()
        let slot = try makeSlot(for: credential, masterKey: masterKey, parameters: parameters)
        return (AegisEnvelope(slots: [slot], content: nil), masterKey)
    }

    /// This envelope with one more slot, wrapping `masterKey` for `credential`.
    /// - Throws: ``VaultError/wrongMasterKey`` when `masterKey` does not open this vault's content.
    public func addingSlot(
        for credential: VaultCredential,
        masterKey: VaultMasterKey,
        parameters: ScryptParameters = .default
    ) throws(VaultError) -> AegisEnvelope {
        try checkMasterKey(masterKey)
        guard slots.count < Self.maximumSlotCount else { throw .tooManySlots(count: slots.count + 1, limit: Self.maximumSlotCount) }
        let slot = try Self.makeSlot(for: credential, masterKey: masterKey, parameters: parameters)
        return AegisEnvelope(slots: slots + [slot], content: content)
    }

    /// This envelope without the slots `shouldRemove` picks.
    /// - Throws: ``VaultError/lastSlot`` when no passphrase or key-file slot would remain.
    public func removingSlots(where shouldRemove: (VaultSlot) -> Bool) throws(VaultError) -> AegisEnvelope {
        let kept = slots.filter { !shouldRemove($0) }
        guard kept.contains(where: { $0.opens(with: .passphrase) || $0.opens(with: .keyFile) }) else { throw .lastSlot }
        return AegisEnvelope(slots: kept, content: content)
    }

    /// This envelope without the slots a credential of `kind` opens.
    /// - Throws: ``VaultError/lastSlot`` when no passphrase or key-file slot would remain.
    public func removingSlots(ofKind kind: VaultCredential.Kind) throws(VaultError) -> AegisEnvelope {
        try removingSlots { $0.opens(with: kind) }
    }

    /// The whole vault file with `content` (the JSON bytes of the `db` object) encrypted under
    /// `masterKey` with a fresh random nonce:
    /// `{"db":"<Base64>","header":{"params":{"nonce","tag"},"slots":[…]},"version":1}`, as Aegis reads it.
    /// - Throws: ``VaultError/wrongMasterKey`` when `masterKey` does not open the content this
    ///   envelope was read with, so that a mismatched key never writes a vault no slot opens.
    public func sealed(content plaintext: [UInt8], masterKey: VaultMasterKey) throws(VaultError) -> [UInt8] {
        try checkMasterKey(masterKey)
        let nonce = try SlotKey.randomBytes(AESGCM.nonceByteCount)
        let sealed: AESGCM.Sealed
        do {
            sealed = try masterKey.withUnsafeBytes { key throws(AESGCM.Failure) in
                try plaintext.withBytes { plaintext throws(AESGCM.Failure) in
                    try nonce.withBytes { nonce throws(AESGCM.Failure) in try AESGCM.seal(plaintext, key: key, nonce: nonce) }
                }
            }
        } catch {
            throw .cryptoFailure(error.description)
        }
        let file = AegisJSON.File(
            version: Self.version,
            header: AegisJSON.Header(
                slots: slots.map(Self.json(for:)),
                params: AegisJSON.Parameters(nonce: Hex.encode(nonce), tag: Hex.encode(sealed.tag))),
            db: .encrypted(Data(sealed.ciphertext).base64EncodedString()))
        do {
            return Array(try AegisJSON.encoder().encode(file))
        } catch {
            throw .malformed("the vault cannot be encoded as JSON")
        }
    }

    /// A master key that does not decrypt the current content must not wrap or seal anything.
    private func checkMasterKey(_ masterKey: VaultMasterKey) throws(VaultError) {
        if content != nil { _ = try decryptContent(masterKey: masterKey) }
    }

    private static func makeSlot(
        for credential: VaultCredential,
        masterKey: VaultMasterKey,
        parameters: ScryptParameters
    ) throws(VaultError) -> VaultSlot {
        let uuid: String
        do {
            uuid = try RandomUUID.make()
        } catch {
            throw .cryptoFailure(error.description)
        }
        let kind: VaultSlot.Kind
        let salt: [UInt8]
        switch credential {
        case .keyFile:
            kind = .raw
            salt = []
        case .passphrase:
            kind = .password(parameters)
            salt = try SlotKey.randomBytes(SlotKey.saltByteCount)
        }
        let slotKey = try SlotKey.derive(for: kind, salt: salt, credential: credential)
        let nonce = try SlotKey.randomBytes(AESGCM.nonceByteCount)
        let wrapped: AESGCM.Sealed
        do {
            wrapped = try slotKey.withUnsafeBytes { key throws(AESGCM.Failure) in
                try masterKey.withUnsafeBytes { master throws(AESGCM.Failure) in
                    try nonce.withBytes { nonce throws(AESGCM.Failure) in try AESGCM.seal(master, key: key, nonce: nonce) }
                }
            }
        } catch {
            throw .cryptoFailure(error.description)
        }
        let isPassword = credential.kind == .passphrase
        return VaultSlot(
            uuid: uuid, kind: kind, wrappedKey: wrapped.ciphertext, nonce: nonce, tag: wrapped.tag, salt: salt,
            repaired: isPassword ? true : nil, isBackup: isPassword ? false : nil)
    }

    private static func json(for slot: VaultSlot) -> AegisJSON.Slot {
        var json = AegisJSON.Slot(
            type: 0, uuid: slot.uuid, key: Hex.encode(slot.wrappedKey),
            keyParams: AegisJSON.Parameters(nonce: Hex.encode(slot.nonce), tag: Hex.encode(slot.tag)))
        switch slot.kind {
        case .raw: break
        case .biometric: json.type = 2
        case .password(let parameters):
            json.type = 1
            json.n = parameters.n
            json.r = parameters.r
            json.p = parameters.p
            json.salt = Hex.encode(slot.salt)
            json.repaired = slot.repaired
            json.isBackup = slot.isBackup
        }
        return json
    }
}
