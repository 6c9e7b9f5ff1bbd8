internal import Foundation
internal import OTPAuthentication
internal import OTPCore

extension IdentityToolkitRoutes {
    /// `POST /v1/projects/{project}/accounts:batchCreate` (firebase-admin's `import_users`): up to
    /// 1000 accounts made as they are, each whole or not at all, with per-account reasons in
    /// `error` (HTTP 200 even then, as Firebase answers). Password hashes are taken as
    /// `STANDARD_SCRYPT` (what `totp account export` writes), `PBKDF_SHA1`, `PBKDF2_SHA256`, `BCRYPT`, `MD5`,
    /// `SHA1`, `SHA256` and `SHA512` (with `passwordHashOrder`), and
    /// Firebase's own `SCRYPT` of a project the service is configured with (OTPAuthentication's `FirebaseHashConfig`); the other algorithms are
    /// refused whole, and so is `allowOverwrite`: existing accounts are never written over. Second factors (`mfaInfo`) come along: phone factors as Firebase exports them, TOTP factors with OTPKit's `totpInfo.sharedSecretKey`, each under a new enrollment id.
    func adminBatchCreate(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.BatchCreateResponse {
        let request = try body.decode(Wire.BatchCreateRequest.self)
        guard let users = request.users, !users.isEmpty else {
            throw IdentityToolkitError("MISSING_USER_ACCOUNT", "give the accounts to import in users")
        }
        guard users.count <= AccountAdministration.maximumImportCount else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "give at most \(AccountAdministration.maximumImportCount) users at once")
        }
        if request.allowOverwrite == true {
            throw IdentityToolkitError("INVALID_ARGUMENT", "existing accounts are never overwritten here: delete them first, then import")
        }
        var ids: Set<String> = []
        for user in users {
            if let id = user.localId, !ids.insert(id).inserted { throw IdentityToolkitError("DUPLICATE_LOCAL_ID", id) }
        }
        let hashing = try Self.importedHashing(request, passwords: service.configuration.passwords)
        var failures: [Wire.BatchCreateResponse.Failure] = []
        var accepted: [(index: Int, account: ImportedAccount)] = []
        for (index, user) in users.enumerated() {
            do {
                accepted.append((index, try Self.importedAccount(user, hashing: hashing)))
            } catch {
                failures.append(.init(index: index, message: error.detail))
            }
        }
        let refused = try await call { () async throws(AuthError) in try await service.administration.importAccounts(accepted.map(\.account)) }
        failures += refused.map { .init(index: accepted[$0.index].index, message: $0.message) }
        failures.sort { $0.index < $1.index }
        return Wire.BatchCreateResponse(error: failures.isEmpty ? nil : failures)
    }

    /// How an import's hashes are made.
    enum ImportedHashing {
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

        /// Whether each user's hash comes with a salt of its own.
        var usesSalt: Bool {
            switch self {
            case .standardScrypt, .firebaseScrypt, .pbkdf2: true
            case .bcrypt, .digest, .hmac: false
            }
        }
    }

    /// The request's hashing, `nil` when it names no algorithm.
    private static func importedHashing(
        _ request: Wire.BatchCreateRequest, passwords: PasswordSettings
    ) throws(IdentityToolkitError) -> ImportedHashing? {
        guard let algorithm = request.hashAlgorithm, !algorithm.isEmpty else { return nil }
        switch algorithm {
        case "SCRYPT": return .firebaseScrypt(try firebaseConfig(request, configured: passwords.firebaseHashConfigs))
        case "HMAC_MD5", "HMAC_SHA1", "HMAC_SHA256", "HMAC_SHA512":
            return .hmac(try hmacKey(request, algorithm: algorithm, configured: passwords.hmacImportKeys), order: try hashOrder(request))
        case "PBKDF_SHA1", "PBKDF2_SHA256":
            guard let rounds = request.rounds?.value, let count = Int(exactly: rounds), PasswordHasher.pbkdf2Rounds.contains(count) else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "\(algorithm) needs rounds from 1 to 120000")
            }
            return .pbkdf2(algorithm == "PBKDF_SHA1" ? .sha1 : .sha256, rounds: count)
        case "BCRYPT": return .bcrypt
        case "MD5", "SHA1", "SHA256", "SHA512":
            let function = PasswordHasher.DigestHash(rawValue: algorithm.lowercased()) ?? .sha256
            // MD5 takes 0 rounds, one application of the digest as 1 is.
            let lowest = function == .md5 ? 0 : 1
            guard let rounds = request.rounds?.value, let count = Int(exactly: rounds), (lowest...8192).contains(count) else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "\(algorithm) needs rounds from \(lowest) to 8192")
            }
            return .digest(function, rounds: max(count, 1), order: try hashOrder(request))
        case "STANDARD_SCRYPT": break
        default:
            throw IdentityToolkitError(
                "INVALID_HASH_ALGORITHM",
                "this server imports SCRYPT (Firebase's), STANDARD_SCRYPT, PBKDF_SHA1, PBKDF2_SHA256, BCRYPT, MD5, SHA1, SHA256, SHA512 and HMAC_* password hashes, not \(algorithm.prefix(40)): import those users without passwordHash, and they reset their passwords"
            )
        }
        guard let n = request.cpuMemCost?.value, let r = request.blockSize?.value, let p = request.parallelization?.value,
            let length = request.dkLen?.value
        else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "STANDARD_SCRYPT needs cpuMemCost, blockSize, parallelization and dkLen")
        }
        guard let n = Int(exactly: n), let r = Int(exactly: r), let p = Int(exactly: p), let length = Int(exactly: length), length > 0 else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "cpuMemCost, blockSize, parallelization and dkLen must be positive whole numbers")
        }
        return .standardScrypt(n: n, r: r, p: p, length: length)
    }

    /// Which of the salt and the password a digest or HMAC import hashed first.
    private static func hashOrder(_ request: Wire.BatchCreateRequest) throws(IdentityToolkitError) -> PasswordHasher.HashInputOrder {
        switch request.passwordHashOrder {
        case nil, "", "SALT_AND_PASSWORD", "UNSPECIFIED_ORDER": .saltFirst
        case "PASSWORD_AND_SALT": .passwordFirst
        case let other?:
            throw IdentityToolkitError("INVALID_ARGUMENT", "passwordHashOrder \(other.prefix(40)) is not SALT_AND_PASSWORD or PASSWORD_AND_SALT")
        }
    }

    /// The HMAC key an HMAC import names, when the service is configured with it: as for a
    /// SCRYPT import, its users could not sign in otherwise, since the key is never stored.
    private static func hmacKey(_ request: Wire.BatchCreateRequest, algorithm: String, configured: [HMACImportKey]) throws(IdentityToolkitError)
        -> HMACImportKey
    {
        guard let key = request.signerKey.flatMap(Self.base64), !key.isEmpty else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "\(algorithm) needs the key in signerKey, in base64")
        }
        guard let named = configured.first(where: { $0.algorithmName == algorithm && $0.key == key }) else {
            throw IdentityToolkitError(
                "INVALID_HASH_ALGORITHM",
                "this server is not configured with this \(algorithm) key, without which these users could not sign in: start otpkit-server with --hmac-import-key \(algorithm)=FILE (the key in base64)"
            )
        }
        return named
    }

    /// The Firebase project a SCRYPT import names, when the service is configured with it: its
    /// users could not sign in otherwise, since the signer key is never stored with the hashes.
    private static func firebaseConfig(_ request: Wire.BatchCreateRequest, configured: [FirebaseHashConfig]) throws(IdentityToolkitError)
        -> FirebaseHashConfig
    {
        guard let key = request.signerKey.flatMap(Self.base64), let rounds = request.rounds?.value, let memoryCost = request.memoryCost?.value,
            let separator = Self.base64(request.saltSeparator ?? "")
        else {
            throw IdentityToolkitError("INVALID_ARGUMENT", "SCRYPT needs signerKey and saltSeparator in base64, rounds and memoryCost")
        }
        let named: FirebaseHashConfig
        do {
            named = try FirebaseHashConfig(
                signerKey: key, saltSeparator: separator, rounds: Int(clamping: rounds), memoryCost: Int(clamping: memoryCost))
        } catch {
            throw IdentityToolkitError("INVALID_ARGUMENT", error.description)
        }
        guard configured.contains(named) else {
            throw IdentityToolkitError(
                "INVALID_HASH_ALGORITHM",
                "this server is not configured with this Firebase project's password hash parameters, without which its users could not sign in: start otpkit-server with --firebase-hash-config FILE (the hash_config the Firebase console shows under Password hash parameters)"
            )
        }
        return named
    }

    /// One user as the service imports it; a refusal names what is wrong with it.
    private static func importedAccount(
        _ user: Wire.BatchCreateRequest.User, hashing: ImportedHashing?
    ) throws(IdentityToolkitError) -> ImportedAccount {
        guard let id = user.localId, !id.isEmpty else { throw IdentityToolkitError("INVALID_ARGUMENT", "localId is missing") }
        let secondFactors = try (user.mfaInfo ?? []).map { (factor) throws(IdentityToolkitError) in try Self.importedFactor(factor) }
        var passwordHash: String?
        if let hash = user.passwordHash, !hash.isEmpty {
            guard let hashing else { throw IdentityToolkitError("INVALID_ARGUMENT", "a passwordHash needs the request's hashAlgorithm") }
            guard let key = Self.base64(hash) else { throw IdentityToolkitError("INVALID_ARGUMENT", "passwordHash must be base64") }
            // bcrypt's crypt string carries its own salt.
            guard let salt = user.salt.flatMap(Self.base64) ?? (hashing.usesSalt ? nil : []) else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "salt must be given, in base64")
            }
            do {
                switch hashing {
                case .standardScrypt(let n, let r, let p, let length):
                    guard key.count == length else {
                        throw IdentityToolkitError("INVALID_ARGUMENT", "the passwordHash has \(key.count) bytes and dkLen says \(length)")
                    }
                    passwordHash = try PasswordHasher.standardScryptHash(derivedKey: key, salt: salt, n: n, r: r, p: p)
                case .firebaseScrypt(let config):
                    passwordHash = try PasswordHasher.firebaseScryptHash(key, salt: salt, config: config)
                case .pbkdf2(let function, let rounds):
                    passwordHash = try PasswordHasher.pbkdf2Hash(key, salt: salt, rounds: rounds, function: function)
                case .bcrypt:
                    passwordHash = try PasswordHasher.bcryptHash(String(decoding: key, as: UTF8.self))
                case .digest(let function, let rounds, let order):
                    passwordHash = try PasswordHasher.digestHash(key, salt: salt, rounds: rounds, function: function, order: order)
                case .hmac(let hmacKey, let order):
                    passwordHash = try PasswordHasher.hmacHash(key, salt: salt, key: hmacKey, order: order)
                }
            } catch let error as IdentityToolkitError {
                throw error
            } catch {
                throw IdentityToolkitError("INVALID_ARGUMENT", "\(error)")
            }
        }
        var claims: String?
        if let attributes = user.customAttributes {
            if case .set(let serialized) = try CustomClaims.change(attributes) { claims = serialized }
        }
        // Firebase's export lists the password and the phone among the providers; both come from
        // their own fields.
        let identities = (user.providerUserInfo ?? []).compactMap { provider -> ProviderIdentity? in
            guard let providerID = provider.providerId, let rawID = provider.rawId, !rawID.isEmpty,
                providerID != EmailAuthProvider.id, providerID != PhoneAuthProvider.id
            else { return nil }
            return ProviderIdentity(providerID: providerID, providerUID: rawID, email: provider.email, displayName: provider.displayName)
        }
        return ImportedAccount(
            id: id, email: user.email.flatMap { $0.isEmpty ? nil : $0 }, isEmailVerified: user.emailVerified ?? false,
            displayName: user.displayName, photoURL: user.photoUrl, isDisabled: user.disabled ?? false,
            createdAt: user.createdAt.map { $0.value / 1000 }, lastSignInAt: user.lastLoginAt.map { $0.value / 1000 },
            phoneNumber: user.phoneNumber.flatMap { $0.isEmpty ? nil : $0 }, customAttributes: claims, passwordHash: passwordHash,
            identities: identities, secondFactors: secondFactors)
    }

    /// One of a user's `mfaInfo`; its enrollment id is not kept (the factor gets a new one).
    private static func importedFactor(_ factor: Wire.BatchCreateRequest.User.SecondFactor) throws(IdentityToolkitError) -> ImportedFactor {
        var enrolledAt: Int64?
        if let text = factor.enrolledAt, !text.isEmpty {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let plain = ISO8601DateFormatter()
            guard let date = formatter.date(from: text) ?? plain.date(from: text) else {
                throw IdentityToolkitError("INVALID_ARGUMENT", "mfaInfo enrolledAt \(text.prefix(40)) is not an RFC 3339 time")
            }
            enrolledAt = Int64(date.timeIntervalSince1970)
        }
        switch (factor.phoneInfo, factor.totpInfo) {
        case (let number?, nil):
            return .phone(phoneNumber: number, displayName: factor.displayName, enrolledAt: enrolledAt)
        case (nil, let totp?):
            guard let key = totp.sharedSecretKey, let secret = try? OTPSecret(base32: key) else {
                throw IdentityToolkitError(
                    "INVALID_ARGUMENT",
                    "a TOTP factor (totpInfo) needs its shared secret in sharedSecretKey, base32 (OTPKit's extension): Firebase's exports carry none, so import such users without it, and they enroll again"
                )
            }
            return .totp(secret: secret.withUnsafeBytes { Array($0) }, displayName: factor.displayName, enrolledAt: enrolledAt)
        default:
            throw IdentityToolkitError("INVALID_ARGUMENT", "each of mfaInfo is a phone factor (phoneInfo) or a TOTP factor (totpInfo)")
        }
    }

    /// Standard or URL-safe base64, padded or not.
    private static func base64(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
