internal import OTPCore

/// The key a slot wraps the master key under, from a credential.
enum SlotKey {
    /// Bytes of random salt for a new password slot, as Aegis writes.
    static let saltByteCount = 32

    /// scrypt of the passphrase for a password slot, the key file's bytes for a raw slot.
    static func derive(for kind: VaultSlot.Kind, salt: [UInt8], credential: VaultCredential) throws(VaultError) -> SecureBytes {
        switch (kind, credential) {
        case (.raw, .keyFile(let keyFile)):
            return keyFile.storage
        case (.password(let parameters), .passphrase(let passphrase)):
            do {
                return try passphrase.storage.withUnsafeBytes { password throws(PasswordKDF.Failure) in
                    try salt.withBytes { salt throws(PasswordKDF.Failure) in
                        try PasswordKDF.scrypt(
                            password: password, salt: salt, n: UInt64(parameters.n), r: UInt32(parameters.r), p: UInt32(parameters.p),
                            keyByteCount: AESGCM.keyByteCount)
                    }
                }
            } catch {
                throw .cryptoFailure(error.description)
            }
        default:
            throw .noSlot(for: credential.kind)
        }
    }

    /// `count` bytes from the CSPRNG, for nonces and salts.
    static func randomBytes(_ count: Int) throws(VaultError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard bytes.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else {
            throw .cryptoFailure("RAND_bytes could not produce random bytes")
        }
        return bytes
    }
}
