internal import OTPCore

// Hashes imported from HMACs (Firebase's HMAC_MD5, HMAC_SHA1, HMAC_SHA256 and HMAC_SHA512):
// `$hmac-sha256$k=KEYID,o=sp$SALT$HASH`, the key configured (``HMACImportKey``) and named by its
// id, `o` saying whether the salt (`sp`) or the password (`ps`) came first in the message.
extension PasswordHasher {
    static let hmacPrefix = "$hmac-"

    /// The stored form of an HMAC hash made elsewhere: `hash` of a password with `salt` (which may
    /// be empty) in `order`, under `key`.
    /// - Throws: ``PasswordHashError/unusableImport(_:)`` for a salt or a hash this hasher does
    ///   not take.
    public static func hmacHash(_ hash: [UInt8], salt: [UInt8], key: HMACImportKey, order: HashInputOrder = .saltFirst)
        throws(PasswordHashError) -> String
    {
        guard salt.count <= 64 else { throw .unusableImport("a salt of \(salt.count) bytes: at most 64 are taken") }
        guard hash.count == key.function.kdfDigest.byteCount else {
            throw .unusableImport("\(hash.count) bytes, where \(key.algorithmName) makes \(key.function.kdfDigest.byteCount)")
        }
        return hmacPrefix + key.function.rawValue + "$k=\(key.keyID),o=\(order.rawValue)$" + base64(salt) + "$" + base64(hash)
    }

    func verifyHMAC(_ password: String, against encoded: String) -> Verification {
        guard let stored = HMACStoredHash(encoded), let key = hmacImportKeys[stored.keyID], key.function == stored.function else {
            return .unusableHash
        }
        let code: SecureBytes
        do {
            code = try Array(password.utf8).withBytes { passwordBytes throws(PasswordKDF.Failure) in
                try stored.salt.withBytes { saltBytes throws(PasswordKDF.Failure) in
                    try key.key.withBytes { keyBytes throws(PasswordKDF.Failure) in
                        let (first, second) = stored.order == .saltFirst ? (saltBytes, passwordBytes) : (passwordBytes, saltBytes)
                        return try PasswordKDF.hmac(key.function.kdfDigest, key: keyBytes, first: first, second: second)
                    }
                }
            }
        } catch {
            return .unusableHash
        }
        // Every match is re-hashed in this hasher's own form.
        return code.withUnsafeBytes { ConstantTime.equal(Array($0), stored.hash) } ? .matches(needsRehash: true) : .doesNotMatch
    }

    /// `$hmac-sha256$k=KEYID,o=sp$SALT$HASH` taken apart.
    struct HMACStoredHash {
        let function: DigestHash
        let keyID: String
        let order: HashInputOrder
        let salt: [UInt8]
        let hash: [UInt8]

        init?(_ encoded: String) {
            guard encoded.hasPrefix(PasswordHasher.hmacPrefix) else { return nil }
            let fields = encoded.dropFirst(PasswordHasher.hmacPrefix.count).split(separator: "$", omittingEmptySubsequences: false)
            guard fields.count == 4, let function = DigestHash(rawValue: String(fields[0])) else { return nil }
            let settings = fields[1].split(separator: ",")
            guard settings.count == 2, settings[0].hasPrefix("k="), settings[1].hasPrefix("o="),
                let order = HashInputOrder(rawValue: String(settings[1].dropFirst(2))), let salt = StoredHash.decode(fields[2]),
                let hash = StoredHash.decode(fields[3]), hash.count == function.kdfDigest.byteCount
            else { return nil }
            self.function = function
            self.keyID = String(settings[0].dropFirst(2))
            self.order = order
            self.salt = salt
            self.hash = hash
        }
    }
}
