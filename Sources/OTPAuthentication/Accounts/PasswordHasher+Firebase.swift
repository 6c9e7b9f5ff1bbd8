internal import OTPCore

// Hashes imported from a Firebase project with its own modified scrypt (FirebaseHashConfig).
extension PasswordHasher {
    /// The stored form of a hash imported from the Firebase project of `config`: the project's
    /// `hash` of a user's password with the user's `salt`, named by the key's id only (the key is
    /// configured, never stored).
    /// - Throws: ``PasswordHashError/unusableImport(_:)`` for a salt this hasher does not take, or a
    ///   hash not as long as the signer key.
    public static func firebaseScryptHash(_ hash: [UInt8], salt: [UInt8], config: FirebaseHashConfig) throws(PasswordHashError) -> String {
        guard (1...64).contains(salt.count) else { throw .unusableImport("a salt of \(salt.count) bytes: 1 to 64 are taken") }
        guard hash.count == config.signerKey.count else {
            throw .unusableImport("\(hash.count) bytes where the project's signer key has \(config.signerKey.count)")
        }
        return firebasePrefix + "ln=\(config.memoryCost),r=\(config.rounds),key=\(config.keyID)$" + base64(salt) + "$" + base64(hash)
    }

    func verifyFirebase(_ password: String, against encoded: String) -> Verification {
        guard let stored = FirebaseStoredHash(encoded), let config = firebaseHashConfigs[stored.keyID],
            config.memoryCost == stored.memoryCost, config.rounds == stored.rounds,
            let hash = try? config.hash(password, salt: stored.salt)
        else { return .unusableHash }
        // Every match is re-hashed: the project's key is not to be needed for ever.
        return ConstantTime.equal(hash, stored.hash) ? .matches(needsRehash: true) : .doesNotMatch
    }

    /// `$firebase-scrypt$ln=14,r=8,key=KEYID$SALT$HASH` taken apart.
    struct FirebaseStoredHash {
        let memoryCost: Int
        let rounds: Int
        let keyID: String
        let salt: [UInt8]
        let hash: [UInt8]

        init?(_ encoded: String) {
            let fields = encoded.dropFirst(PasswordHasher.firebasePrefix.count).split(separator: "$", omittingEmptySubsequences: false)
            guard encoded.hasPrefix(PasswordHasher.firebasePrefix), fields.count == 3 else { return nil }
            var values: [String: String] = [:]
            for pair in fields[0].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                values[String(parts[0])] = String(parts[1])
            }
            guard let memoryCost = values["ln"].flatMap(Int.init), FirebaseHashConfig.memoryCostRange.contains(memoryCost),
                let rounds = values["r"].flatMap(Int.init), FirebaseHashConfig.roundsRange.contains(rounds), let keyID = values["key"],
                let salt = StoredHash.decode(fields[1]), let hash = StoredHash.decode(fields[2])
            else { return nil }
            self.memoryCost = memoryCost
            self.rounds = rounds
            self.keyID = keyID
            self.salt = salt
            self.hash = hash
        }
    }
}
