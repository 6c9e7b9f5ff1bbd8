internal import OTPCore

// Hashes imported from plain digests (Firebase's MD5, SHA1, SHA256 and SHA512):
// `$digest-sha256$r=ROUNDS,o=sp$SALT$HASH`, `o` saying whether the salt (`sp`) or the password
// (`ps`) came first. Firebase does not publish how it iterates; this takes the common reading,
// the digest of salt and password once, then of the digest before, `rounds` applications in all,
// which reproduces the salt-first single round found for SHA-256 exports.
extension PasswordHasher {
    static let digestPrefix = "$digest-"

    /// The rounds a digest import takes (Firebase's MD5 takes 0, read as 1).
    public static let digestRounds = 1...8192

    /// The digests of plain-digest imports.
    public enum DigestHash: String, Sendable, CaseIterable {
        /// Firebase's `MD5`.
        case md5
        /// Firebase's `SHA1`.
        case sha1
        /// Firebase's `SHA256`.
        case sha256
        /// Firebase's `SHA512`.
        case sha512

        var kdfDigest: PasswordKDF.Digest {
            switch self {
            case .md5: .md5
            case .sha1: .sha1
            case .sha256: .sha256
            case .sha512: .sha512
            }
        }
    }

    /// Which of the salt and the password a digest import hashed first (Firebase's
    /// `passwordHashOrder`).
    public enum HashInputOrder: String, Sendable, CaseIterable {
        /// `SALT_AND_PASSWORD`, Firebase's default.
        case saltFirst = "sp"
        /// `PASSWORD_AND_SALT`.
        case passwordFirst = "ps"
    }

    /// The stored form of a plain-digest hash made elsewhere: `hash` of a password with `salt`
    /// (which may be empty) in `order`, after `rounds` applications of `function`.
    /// - Throws: ``PasswordHashError/unusableImport(_:)`` for rounds, a salt or a hash this hasher
    ///   does not take.
    public static func digestHash(_ hash: [UInt8], salt: [UInt8], rounds: Int, function: DigestHash, order: HashInputOrder = .saltFirst)
        throws(PasswordHashError) -> String
    {
        guard digestRounds.contains(rounds) else { throw .unusableImport("\(rounds) rounds: 1 to 8192 are taken") }
        guard salt.count <= 64 else { throw .unusableImport("a salt of \(salt.count) bytes: at most 64 are taken") }
        guard hash.count == function.kdfDigest.byteCount else {
            throw .unusableImport("\(hash.count) bytes, where \(function.rawValue) makes \(function.kdfDigest.byteCount)")
        }
        return digestPrefix + function.rawValue + "$r=\(rounds),o=\(order.rawValue)$" + base64(salt) + "$" + base64(hash)
    }

    static func verifyDigest(_ password: String, against encoded: String) -> Verification {
        guard let stored = DigestStoredHash(encoded) else { return .unusableHash }
        let key: SecureBytes
        do {
            key = try Array(password.utf8).withBytes { passwordBytes throws(PasswordKDF.Failure) in
                try stored.salt.withBytes { saltBytes throws(PasswordKDF.Failure) in
                    let (first, second) = stored.order == .saltFirst ? (saltBytes, passwordBytes) : (passwordBytes, saltBytes)
                    return try PasswordKDF.iteratedDigest(stored.function.kdfDigest, first: first, second: second, rounds: stored.rounds)
                }
            }
        } catch {
            return .unusableHash
        }
        // Every match is re-hashed in this hasher's own form.
        return key.withUnsafeBytes { ConstantTime.equal(Array($0), stored.hash) } ? .matches(needsRehash: true) : .doesNotMatch
    }

    /// `$digest-sha256$r=ROUNDS,o=sp$SALT$HASH` taken apart.
    struct DigestStoredHash {
        let function: DigestHash
        let rounds: Int
        let order: HashInputOrder
        let salt: [UInt8]
        let hash: [UInt8]

        init?(_ encoded: String) {
            guard encoded.hasPrefix(PasswordHasher.digestPrefix) else { return nil }
            let fields = encoded.dropFirst(PasswordHasher.digestPrefix.count).split(separator: "$", omittingEmptySubsequences: false)
            guard fields.count == 4, let function = DigestHash(rawValue: String(fields[0])) else { return nil }
            let settings = fields[1].split(separator: ",")
            guard settings.count == 2, settings[0].hasPrefix("r="), settings[1].hasPrefix("o="), let rounds = Int(settings[0].dropFirst(2)),
                PasswordHasher.digestRounds.contains(rounds), let order = HashInputOrder(rawValue: String(settings[1].dropFirst(2))),
                let salt = StoredHash.decode(fields[2]), let hash = StoredHash.decode(fields[3]), hash.count == function.kdfDigest.byteCount
            else { return nil }
            self.function = function
            self.rounds = rounds
            self.order = order
            self.salt = salt
            self.hash = hash
        }
    }
}
