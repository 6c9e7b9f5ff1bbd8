internal import OTPSealing

/// How the password hashes of an import were made, as Firebase names them (`accounts:batchCreate`'s
/// `hashAlgorithm` and its parameters, the hash options of `firebase auth:import`), checked before
/// any user is read: the server's import route and `totp account import` both read them here.
package enum FirebaseImportHashing: Sendable {
    /// Standard scrypt: N, block size, parallelism and the derived key's length.
    case standardScrypt(n: Int, r: Int, p: Int, length: Int)
    /// Firebase's modified scrypt of a configured project.
    case firebaseScrypt(FirebaseHashConfig)
    /// PBKDF2-HMAC (Firebase's `PBKDF_SHA1` and `PBKDF2_SHA256`) with that many rounds.
    case pbkdf2(PasswordHasher.PBKDF2Hash, rounds: Int)
    /// bcrypt: each `passwordHash` is a crypt string (`$2b$…`), which carries its salt.
    case bcrypt
    /// A plain digest (Firebase's `MD5`, `SHA1`, `SHA256`, `SHA512`) applied `rounds` times,
    /// the salt and the password in `order`; the salt may be empty.
    case digest(PasswordHasher.DigestHash, rounds: Int, order: PasswordHasher.HashInputOrder)
    /// An HMAC under a configured key, the salt and the password in `order`.
    case hmac(HMACImportKey, order: PasswordHasher.HashInputOrder)

    /// The algorithm and its parameters as `accounts:batchCreate` names them; keys and separators
    /// in base64 (either alphabet).
    package struct Parameters: Sendable {
        package var algorithm: String?
        package var signerKey: String?
        package var saltSeparator: String?
        package var rounds: Int64?
        package var memoryCost: Int64?
        package var cpuMemCost: Int64?
        package var blockSize: Int64?
        package var parallelization: Int64?
        package var dkLen: Int64?
        /// `SALT_AND_PASSWORD` (the default) or `PASSWORD_AND_SALT`.
        package var passwordHashOrder: String?

        package init() {}
    }

    /// The algorithms an import takes, in Firebase's names, for messages.
    package static let algorithmNames =
        "SCRYPT (Firebase's), STANDARD_SCRYPT, PBKDF_SHA1, PBKDF2_SHA256, BCRYPT, MD5, SHA1, SHA256, SHA512 and HMAC_MD5, HMAC_SHA1, HMAC_SHA256, HMAC_SHA512"

    /// The hashing `parameters` name, `nil` when they name no algorithm. A Firebase project's
    /// scrypt and an HMAC key must be among those `configured`: the service could not check the
    /// users' passwords without them, since neither is stored beside the hashes.
    ///
    /// - Throws: `INVALID_HASH_ALGORITHM` for an algorithm not taken or not configured,
    ///   `INVALID_ARGUMENT` for a missing or malformed parameter, each saying which.
    package init?(_ parameters: Parameters, configured: PasswordSettings) throws(AdminRequestError) {
        guard let algorithm = parameters.algorithm, !algorithm.isEmpty else { return nil }
        switch algorithm {
        case "SCRYPT":
            self = .firebaseScrypt(try Self.firebaseConfig(parameters, configured: configured.firebaseHashConfigs))
        case "HMAC_MD5", "HMAC_SHA1", "HMAC_SHA256", "HMAC_SHA512":
            self = .hmac(try Self.hmacKey(parameters, algorithm: algorithm, configured: configured.hmacImportKeys), order: try Self.order(parameters))
        case "PBKDF_SHA1", "PBKDF2_SHA256":
            guard let rounds = parameters.rounds, let count = Int(exactly: rounds), PasswordHasher.pbkdf2Rounds.contains(count) else {
                throw .invalidArgument("\(algorithm) needs rounds from 1 to 120000")
            }
            self = .pbkdf2(algorithm == "PBKDF_SHA1" ? .sha1 : .sha256, rounds: count)
        case "BCRYPT":
            self = .bcrypt
        case "MD5", "SHA1", "SHA256", "SHA512":
            let function = PasswordHasher.DigestHash(rawValue: algorithm.lowercased()) ?? .sha256
            // MD5 takes 0 rounds, one application of the digest as 1 is.
            let lowest = function == .md5 ? 0 : 1
            guard let rounds = parameters.rounds, let count = Int(exactly: rounds), (lowest...8192).contains(count) else {
                throw .invalidArgument("\(algorithm) needs rounds from \(lowest) to 8192")
            }
            self = .digest(function, rounds: max(count, 1), order: try Self.order(parameters))
        case "STANDARD_SCRYPT":
            guard let n = parameters.cpuMemCost, let r = parameters.blockSize, let p = parameters.parallelization, let length = parameters.dkLen
            else {
                throw .invalidArgument("STANDARD_SCRYPT needs cpuMemCost (N), blockSize, parallelization and dkLen")
            }
            guard let n = Int(exactly: n), let r = Int(exactly: r), let p = Int(exactly: p), let length = Int(exactly: length), length > 0 else {
                throw .invalidArgument("cpuMemCost, blockSize, parallelization and dkLen must be positive whole numbers")
            }
            self = .standardScrypt(n: n, r: r, p: p, length: length)
        default:
            throw AdminRequestError(
                "INVALID_HASH_ALGORITHM",
                "password hashes of \(algorithm.prefix(40)) are not imported, only \(Self.algorithmNames): import those users without passwordHash, and they reset their passwords"
            )
        }
    }

    /// Whether each user's hash comes with a salt of its own.
    var usesSalt: Bool {
        switch self {
        case .standardScrypt, .firebaseScrypt, .pbkdf2: true
        case .bcrypt, .digest, .hmac: false
        }
    }

    /// A user's `hash` and `salt` (decoded) in the form ``PasswordHasher`` reads.
    func storedHash(_ hash: [UInt8], salt: [UInt8]) throws(AdminRequestError) -> String {
        if case .standardScrypt(_, _, _, let length) = self, hash.count != length {
            throw .invalidArgument("the passwordHash has \(hash.count) bytes and dkLen says \(length)")
        }
        do throws(PasswordHashError) {
            switch self {
            case .standardScrypt(let n, let r, let p, _):
                return try PasswordHasher.standardScryptHash(derivedKey: hash, salt: salt, n: n, r: r, p: p)
            case .firebaseScrypt(let config):
                return try PasswordHasher.firebaseScryptHash(hash, salt: salt, config: config)
            case .pbkdf2(let function, let rounds):
                return try PasswordHasher.pbkdf2Hash(hash, salt: salt, rounds: rounds, function: function)
            case .bcrypt:
                return try PasswordHasher.bcryptHash(String(decoding: hash, as: UTF8.self))
            case .digest(let function, let rounds, let order):
                return try PasswordHasher.digestHash(hash, salt: salt, rounds: rounds, function: function, order: order)
            case .hmac(let key, let order):
                return try PasswordHasher.hmacHash(hash, salt: salt, key: key, order: order)
            }
        } catch {
            throw .invalidArgument(error.description)
        }
    }

    /// Which of the salt and the password a digest or HMAC import hashed first.
    private static func order(_ parameters: Parameters) throws(AdminRequestError) -> PasswordHasher.HashInputOrder {
        switch parameters.passwordHashOrder {
        case nil, "", "SALT_AND_PASSWORD", "UNSPECIFIED_ORDER": .saltFirst
        case "PASSWORD_AND_SALT": .passwordFirst
        case let other?: throw .invalidArgument("passwordHashOrder \(other.prefix(40)) is not SALT_AND_PASSWORD or PASSWORD_AND_SALT")
        }
    }

    /// The HMAC key an HMAC import names, when it is configured.
    private static func hmacKey(_ parameters: Parameters, algorithm: String, configured: [HMACImportKey]) throws(AdminRequestError)
        -> HMACImportKey
    {
        guard let key = parameters.signerKey.flatMap(Base64URL.decodeEitherAlphabet), !key.isEmpty else {
            throw .invalidArgument("\(algorithm) needs the key in signerKey, in base64")
        }
        guard let named = configured.first(where: { $0.algorithmName == algorithm && $0.key == key }) else {
            throw AdminRequestError(
                "INVALID_HASH_ALGORITHM",
                "this server is not configured with this \(algorithm) key, without which these users could not sign in: start otpkit-server with --hmac-import-key \(algorithm)=FILE (the key in base64)"
            )
        }
        return named
    }

    /// The Firebase project a SCRYPT import names, when it is configured.
    private static func firebaseConfig(_ parameters: Parameters, configured: [FirebaseHashConfig]) throws(AdminRequestError)
        -> FirebaseHashConfig
    {
        guard let key = parameters.signerKey.flatMap(Base64URL.decodeEitherAlphabet), let rounds = parameters.rounds,
            let memoryCost = parameters.memoryCost, let separator = Base64URL.decodeEitherAlphabet(parameters.saltSeparator ?? "")
        else {
            throw .invalidArgument("SCRYPT needs signerKey and saltSeparator in base64, rounds and memoryCost")
        }
        let named: FirebaseHashConfig
        do {
            named = try FirebaseHashConfig(
                signerKey: key, saltSeparator: separator, rounds: Int(clamping: rounds), memoryCost: Int(clamping: memoryCost))
        } catch {
            throw .invalidArgument(error.description)
        }
        guard configured.contains(named) else {
            throw AdminRequestError(
                "INVALID_HASH_ALGORITHM",
                "this server is not configured with this Firebase project's password hash parameters, without which its users could not sign in: start otpkit-server with --firebase-hash-config FILE (the hash_config the Firebase console shows under Password hash parameters)"
            )
        }
        return named
    }
}
