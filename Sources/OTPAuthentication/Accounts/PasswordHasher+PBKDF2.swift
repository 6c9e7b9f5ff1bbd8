internal import OTPCore

// Hashes imported with PBKDF2-HMAC (Firebase's PBKDF_SHA1 and PBKDF2_SHA256):
// `$pbkdf2-sha256$i=ROUNDS$SALT$HASH`, the key as long as the imported hash.
extension PasswordHasher {
    static let pbkdf2Prefix = "$pbkdf2-"

    /// The rounds Firebase's import takes, and that one check may cost here.
    public static let pbkdf2Rounds = 1...120_000

    /// The hash functions PBKDF2 imports use.
    public enum PBKDF2Hash: String, Sendable, CaseIterable {
        /// Firebase's `PBKDF_SHA1`.
        case sha1
        /// Firebase's `PBKDF2_SHA256`.
        case sha256

        var kdfHash: PasswordKDF.PBKDF2Hash {
            switch self {
            case .sha1: .sha1
            case .sha256: .sha256
            }
        }
    }

    /// The stored form of a PBKDF2-HMAC hash made elsewhere: `hash` of a password with `salt`
    /// after `rounds` iterations of `function`.
    /// - Throws: ``PasswordHashError/unusableImport(_:)`` for rounds, a salt or a hash this hasher
    ///   does not take.
    public static func pbkdf2Hash(_ hash: [UInt8], salt: [UInt8], rounds: Int, function: PBKDF2Hash) throws(PasswordHashError) -> String {
        guard pbkdf2Rounds.contains(rounds) else { throw .unusableImport("\(rounds) rounds: 1 to 120000 are taken") }
        guard (1...64).contains(salt.count) else { throw .unusableImport("a salt of \(salt.count) bytes: 1 to 64 are taken") }
        guard StoredHash.keyLengths.contains(hash.count) else {
            throw .unusableImport(
                "a key of \(hash.count) bytes: \(StoredHash.keyLengths.lowerBound) to \(StoredHash.keyLengths.upperBound) are taken")
        }
        return pbkdf2Prefix + function.rawValue + "$i=\(rounds)$" + base64(salt) + "$" + base64(hash)
    }

    static func verifyPBKDF2(_ password: String, against encoded: String) -> Verification {
        guard let stored = PBKDF2StoredHash(encoded) else { return .unusableHash }
        let key: SecureBytes
        do {
            key = try Array(password.utf8).withBytes { passwordBytes throws(PasswordKDF.Failure) in
                try stored.salt.withBytes { saltBytes throws(PasswordKDF.Failure) in
                    try PasswordKDF.pbkdf2(
                        password: passwordBytes, salt: saltBytes, iterations: stored.rounds, hash: stored.function.kdfHash,
                        keyByteCount: stored.hash.count)
                }
            }
        } catch {
            return .unusableHash
        }
        // Every match is re-hashed in this hasher's own form.
        return key.withUnsafeBytes { ConstantTime.equal(Array($0), stored.hash) } ? .matches(needsRehash: true) : .doesNotMatch
    }

    /// `$pbkdf2-sha256$i=ROUNDS$SALT$HASH` taken apart.
    struct PBKDF2StoredHash {
        let function: PBKDF2Hash
        let rounds: Int
        let salt: [UInt8]
        let hash: [UInt8]

        init?(_ encoded: String) {
            guard encoded.hasPrefix(PasswordHasher.pbkdf2Prefix) else { return nil }
            let fields = encoded.dropFirst(PasswordHasher.pbkdf2Prefix.count).split(separator: "$", omittingEmptySubsequences: false)
            guard fields.count == 4, let function = PBKDF2Hash(rawValue: String(fields[0])), fields[1].hasPrefix("i="),
                let rounds = Int(fields[1].dropFirst(2)), PasswordHasher.pbkdf2Rounds.contains(rounds),
                let salt = StoredHash.decode(fields[2]), !salt.isEmpty, let hash = StoredHash.decode(fields[3]),
                StoredHash.keyLengths.contains(hash.count)
            else { return nil }
            self.function = function
            self.rounds = rounds
            self.salt = salt
            self.hash = hash
        }
    }
}
