internal import Foundation
internal import OTPCore
internal import OTPSealing

extension ImportedAccount {
    /// The account a Firebase user record describes, its password hash read as `hashing` says.
    ///
    /// Firebase's exports list the password and the phone among the providers; both come from
    /// their own fields here, and the other providers become linked identities.
    /// - Throws: `INVALID_ARGUMENT` (and the codes of ``CustomClaims``) naming the field that is
    ///   missing or malformed; nothing of the record is taken then.
    package init(firebase user: FirebaseUserRecord, hashing: FirebaseImportHashing?) throws(AdminRequestError) {
        guard let id = user.localId, !id.isEmpty else { throw .invalidArgument("localId is missing") }
        let secondFactors = try (user.mfaInfo ?? []).map { (factor) throws(AdminRequestError) in try ImportedFactor(firebase: factor) }
        var passwordHash: String?
        if let hash = user.passwordHash, !hash.isEmpty {
            guard let hashing else {
                throw .invalidArgument("a passwordHash needs the hash algorithm it was made with (hashAlgorithm, --hash-algo)")
            }
            guard let key = Base64URL.decodeEitherAlphabet(hash) else { throw .invalidArgument("passwordHash must be base64") }
            // bcrypt's crypt string carries its own salt.
            guard let salt = user.salt.flatMap(Base64URL.decodeEitherAlphabet) ?? (hashing.usesSalt ? nil : []) else {
                throw .invalidArgument("salt must be given, in base64")
            }
            passwordHash = try hashing.storedHash(key, salt: salt)
        }
        var claims: String?
        if let attributes = user.customAttributes, case .set(let serialized) = try CustomClaims.change(attributes) {
            claims = serialized
        }
        let identities = (user.providerUserInfo ?? []).compactMap { provider -> ProviderIdentity? in
            guard let providerID = provider.providerId, let rawID = provider.rawId, !rawID.isEmpty,
                providerID != EmailAuthProvider.id, providerID != PhoneAuthProvider.id
            else { return nil }
            return ProviderIdentity(providerID: providerID, providerUID: rawID, email: provider.email, displayName: provider.displayName)
        }
        self.init(
            id: id, email: user.email.flatMap { $0.isEmpty ? nil : $0 }, isEmailVerified: user.emailVerified ?? false,
            displayName: user.displayName, photoURL: user.photoUrl, isDisabled: user.disabled ?? false,
            createdAt: user.createdAt.map { $0.value / 1000 }, lastSignInAt: (user.lastLoginAt ?? user.lastSignedInAt).map { $0.value / 1000 },
            phoneNumber: user.phoneNumber.flatMap { $0.isEmpty ? nil : $0 }, customAttributes: claims, passwordHash: passwordHash,
            identities: identities, secondFactors: secondFactors)
    }
}

extension ImportedFactor {
    /// One of a user's `mfaInfo`; its enrollment id is not kept (the factor gets a new one).
    init(firebase factor: FirebaseUserRecord.SecondFactor) throws(AdminRequestError) {
        var enrolledAt: Int64?
        if let text = factor.enrolledAt, !text.isEmpty {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else {
                throw .invalidArgument("mfaInfo enrolledAt \(text.prefix(40)) is not an RFC 3339 time")
            }
            enrolledAt = Int64(date.timeIntervalSince1970)
        }
        switch (factor.phoneInfo, factor.totpInfo) {
        case (let number?, nil):
            self = .phone(phoneNumber: number, displayName: factor.displayName, enrolledAt: enrolledAt)
        case (nil, let totp?):
            guard let key = totp.sharedSecretKey, let secret = try? OTPSecret(base32: key) else {
                throw .invalidArgument(
                    "a TOTP factor (totpInfo) needs its shared secret in sharedSecretKey, base32 (OTPKit's extension): Firebase's exports carry none, so import such users without it, and they enroll again"
                )
            }
            self = .totp(secret: secret.withUnsafeBytes { Array($0) }, displayName: factor.displayName, enrolledAt: enrolledAt)
        default:
            throw .invalidArgument("each of mfaInfo is a phone factor (phoneInfo) or a TOTP factor (totpInfo)")
        }
    }
}

extension FactorRecord {
    /// Whether the factor has Firebase's TOTP parameters (SHA-1, 6 digits, 30 seconds), the only
    /// ones an imported `totpInfo` can carry, so that an export of its secret imports whole.
    package var hasFirebaseParameters: Bool {
        factorID == TOTPMultiFactorID && algorithm == MultiFactorConfiguration.algorithm && digits == MultiFactorConfiguration.codeLength
            && period == Int64(MultiFactorConfiguration.codeIntervalSeconds)
    }
}
