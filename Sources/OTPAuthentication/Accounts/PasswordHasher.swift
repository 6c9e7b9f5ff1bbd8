internal import Foundation
internal import OTPCore

/// Hashes account passwords with scrypt and checks them in constant time.
///
/// scrypt rather than Argon2id: OpenSSL 3.0 (Debian 12's) derives scrypt through `EVP_KDF`, which
/// OTPKit already uses for its vault, while Argon2 would need OpenSSL 3.2 or one more C library
/// (libargon2); scrypt is memory-hard too, and it is what Firebase's own password hashes are, so
/// an import from Firebase stays within one algorithm family.
///
/// A hash is a PHC string, `$scrypt$ln=16,r=8,p=1$SALT$HASH` (16 random salt bytes and a 32-byte
/// key, both Base64 without padding), so the parameters travel with it and can be raised later.
/// Hashes imported from elsewhere (``standardScryptHash(derivedKey:salt:n:r:p:)``) may have other
/// salt and key lengths; they are re-hashed in this form at their owner's next sign-in.
public struct PasswordHasher: Sendable {
    /// What checking a password against a stored hash found.
    public enum Verification: Hashable, Sendable {
        /// The password is right; `needsRehash` when the hash's parameters differ from the
        /// hasher's, so the caller stores a new hash while it has the password.
        case matches(needsRehash: Bool)
        /// The password is wrong.
        case doesNotMatch
        /// The stored text is not a hash this hasher reads (or its parameters are out of range):
        /// the account cannot sign in with a password until it is reset.
        case unusableHash
    }

    static let saltByteCount = 16
    package static let keyByteCount = 32
    static let prefix = "$scrypt$"

    /// The cost of new hashes.
    public let parameters: PasswordHashParameters
    /// The Firebase projects whose hashes this hasher checks, by ``FirebaseHashConfig/keyID``.
    let firebaseHashConfigs: [String: FirebaseHashConfig]
    /// The keys of the imported HMAC hashes this hasher checks, by ``HMACImportKey/keyID``.
    let hmacImportKeys: [String: HMACImportKey]

    static let firebasePrefix = "$firebase-scrypt$"

    /// A hasher making new hashes at `parameters`, and checking hashes imported from the Firebase
    /// projects of `firebaseHashConfigs` (``firebaseScryptHash(_:salt:config:)``) and under the
    /// keys of `hmacImportKeys` (``hmacHash(_:salt:key:order:)``).
    public init(
        parameters: PasswordHashParameters = .default, firebaseHashConfigs: [FirebaseHashConfig] = [], hmacImportKeys: [HMACImportKey] = []
    ) {
        self.parameters = parameters
        self.firebaseHashConfigs = Dictionary(firebaseHashConfigs.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
        self.hmacImportKeys = Dictionary(hmacImportKeys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A new hash of `password` with a fresh random salt.
    public func hash(_ password: String) throws(PasswordHashError) -> String {
        var salt = [UInt8](repeating: 0, count: Self.saltByteCount)
        guard salt.withUnsafeMutableBytes({ SecureRandom.fill($0) }) else {
            throw .cryptoFailure("RAND_bytes could not produce a salt")
        }
        let key = try Self.derive(password, salt: salt, parameters: parameters)
        return Self.prefix + parameters.description + "$" + Self.base64(salt) + "$" + key.withUnsafeBytes { Self.base64(Array($0)) }
    }

    /// Checks `password` against `encoded`, comparing the derived keys in constant time.
    public func verify(_ password: String, against encoded: String) -> Verification {
        if encoded.hasPrefix(Self.firebasePrefix) { return verifyFirebase(password, against: encoded) }
        if encoded.hasPrefix(Self.pbkdf2Prefix) { return Self.verifyPBKDF2(password, against: encoded) }
        if encoded.hasPrefix(Self.digestPrefix) { return Self.verifyDigest(password, against: encoded) }
        if encoded.hasPrefix(Self.hmacPrefix) { return verifyHMAC(password, against: encoded) }
        if encoded.hasPrefix("$2") { return Self.verifyBcrypt(password, against: encoded) }
        guard let stored = StoredHash(encoded) else { return .unusableHash }
        guard let key = try? Self.derive(password, salt: stored.salt, parameters: stored.parameters, keyByteCount: stored.key.count) else {
            return .unusableHash
        }
        let matches = key.withUnsafeBytes { ConstantTime.equal(Array($0), stored.key) }
        guard matches else { return .doesNotMatch }
        return .matches(needsRehash: stored.parameters != parameters || stored.key.count != Self.keyByteCount)
    }

    /// The stored form of a hash made elsewhere with standard scrypt (Firebase's `STANDARD_SCRYPT`,
    /// OTPKit's own export): the derived key and the salt it was made with, at N = `n` (a power of
    /// two), block size `r` and parallelism `p`.
    /// - Throws: ``PasswordHashError/parametersOutOfRange(logN:r:p:)`` for parameters this hasher
    ///   does not take, ``PasswordHashError/unusableImport(_:)`` for a salt or key of a length it
    ///   does not take.
    public static func standardScryptHash(derivedKey: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int) throws(PasswordHashError) -> String {
        guard n > 1, n & (n - 1) == 0 else { throw .unusableImport("N = \(n), which scrypt needs to be a power of two") }
        let parameters = try PasswordHashParameters(logN: n.trailingZeroBitCount, r: r, p: p)
        guard StoredHash.saltLengths.contains(salt.count) else {
            throw .unusableImport(
                "a salt of \(salt.count) bytes: \(StoredHash.saltLengths.lowerBound) to \(StoredHash.saltLengths.upperBound) are taken")
        }
        guard StoredHash.keyLengths.contains(derivedKey.count) else {
            throw .unusableImport(
                "a derived key of \(derivedKey.count) bytes: \(StoredHash.keyLengths.lowerBound) to \(StoredHash.keyLengths.upperBound) are taken")
        }
        return Self.prefix + parameters.description + "$" + Self.base64(salt) + "$" + Self.base64(derivedKey)
    }

    /// Whether `encoded` is a hash this hasher checks: its own form, an imported one it takes, or a
    /// Firebase project's or an HMAC key's it is configured with.
    public func reads(_ encoded: String) -> Bool {
        if encoded.hasPrefix(Self.firebasePrefix) { return FirebaseStoredHash(encoded).flatMap { firebaseHashConfigs[$0.keyID] } != nil }
        if encoded.hasPrefix(Self.pbkdf2Prefix) { return PBKDF2StoredHash(encoded) != nil }
        if encoded.hasPrefix(Self.digestPrefix) { return DigestStoredHash(encoded) != nil }
        if encoded.hasPrefix(Self.hmacPrefix) {
            return HMACStoredHash(encoded).flatMap { stored in hmacImportKeys[stored.keyID].map { $0.function == stored.function } } == true
        }
        if encoded.hasPrefix("$2") { return (try? Self.bcryptHash(encoded)) != nil }
        return StoredHash(encoded) != nil
    }

    /// Does the work of a verification at the hasher's cost and finds nothing: what a sign-in with
    /// an unknown email runs, so that it takes as long as a wrong password for a known one and
    /// the time of the answer does not tell whether an account exists.
    ///
    /// - Returns: ``Verification/doesNotMatch``, as a wrong password's verification does.
    @discardableResult
    public func verifyWithoutAccount(_ password: String) -> Verification {
        _ = try? Self.derive(password, salt: Self.placeholderSalt, parameters: parameters)
        return .doesNotMatch
    }

    private static let placeholderSalt = [UInt8](repeating: 0x5A, count: saltByteCount)

    private static func derive(
        _ password: String, salt: [UInt8], parameters: PasswordHashParameters, keyByteCount: Int = keyByteCount
    ) throws(PasswordHashError) -> SecureBytes {
        let bytes = Array(password.utf8)
        do {
            return try bytes.withBytes { passwordBytes throws(PasswordKDF.Failure) in
                try salt.withBytes { saltBytes throws(PasswordKDF.Failure) in
                    try PasswordKDF.scrypt(
                        password: passwordBytes, salt: saltBytes, n: 1 << UInt64(parameters.logN), r: UInt32(parameters.r),
                        p: UInt32(parameters.p), keyByteCount: keyByteCount)
                }
            }
        } catch {
            throw .cryptoFailure(error.description)
        }
    }

    static func base64(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return text
    }

    /// A stored hash taken apart; `nil` for anything that is not exactly this format.
    package struct StoredHash {
        /// The salt and key lengths a stored hash may have: this hasher's own, and what imports bring.
        static let saltLengths = 8...64
        static let keyLengths = 16...64

        package let parameters: PasswordHashParameters
        package let salt: [UInt8]
        package let key: [UInt8]

        package init?(_ encoded: String) {
            guard encoded.hasPrefix(PasswordHasher.prefix) else { return nil }
            let fields = encoded.dropFirst(PasswordHasher.prefix.count).split(separator: "$", omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            var values: [String: Int] = [:]
            for pair in fields[0].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let value = Int(parts[1]), values[String(parts[0])] == nil else { return nil }
                values[String(parts[0])] = value
            }
            guard values.count == 3, let logN = values["ln"], let r = values["r"], let p = values["p"],
                let parameters = try? PasswordHashParameters(logN: logN, r: r, p: p),
                let salt = Self.decode(fields[1]), Self.saltLengths.contains(salt.count), let key = Self.decode(fields[2]),
                Self.keyLengths.contains(key.count)
            else { return nil }
            self.parameters = parameters
            self.salt = salt
            self.key = key
        }

        static func decode(_ text: Substring) -> [UInt8]? {
            let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
            return Data(base64Encoded: padded).map(Array.init)
        }
    }
}
