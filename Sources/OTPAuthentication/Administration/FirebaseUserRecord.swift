/// A user as Firebase writes one for an import or an export: an entry of `accounts:batchCreate`'s
/// `users` (firebase-admin's `import_users`) and of `firebase auth:export`'s JSON, whose field
/// names it keeps. Only what OTPKit reads is named; unknown keys are ignored.
package struct FirebaseUserRecord: Decodable, Sendable {
    /// One of `providerUserInfo`: an identity at a federated provider.
    package struct Provider: Decodable, Sendable {
        package var providerId: String?
        package var rawId: String?
        package var email: String?
        package var displayName: String?

        package init(providerId: String? = nil, rawId: String? = nil, email: String? = nil, displayName: String? = nil) {
            self.providerId = providerId
            self.rawId = rawId
            self.email = email
            self.displayName = displayName
        }
    }

    /// One of `mfaInfo`: a phone factor as Firebase exports it (`phoneInfo`), or a TOTP factor with
    /// OTPKit's extension of `totpInfo`, the shared secret in base32 (`sharedSecretKey`, as
    /// `mfaEnrollment:start` hands it out).
    package struct SecondFactor: Decodable, Sendable {
        package struct TOTPInfo: Decodable, Sendable {
            package var sharedSecretKey: String?
        }
        package var mfaEnrollmentId: String?
        package var displayName: String?
        /// RFC 3339, as Firebase writes it.
        package var enrolledAt: String?
        package var phoneInfo: String?
        package var totpInfo: TOTPInfo?
    }

    package var localId: String?
    package var email: String?
    package var emailVerified: Bool?
    /// Base64, standard or URL-safe (firebase-admin sends the latter).
    package var passwordHash: String?
    package var salt: String?
    package var displayName: String?
    package var photoUrl: String?
    package var disabled: Bool?
    /// Milliseconds since 1970.
    package var createdAt: Int64Value?
    /// Milliseconds since 1970: `lastLoginAt` in `accounts:batchCreate` and firebase-tools' CSV,
    /// `lastSignedInAt` in its JSON.
    package var lastLoginAt: Int64Value?
    package var lastSignedInAt: Int64Value?
    package var phoneNumber: String?
    /// One JSON object serialized as a string.
    package var customAttributes: String?
    package var providerUserInfo: [Provider]?
    package var mfaInfo: [SecondFactor]?

    /// An empty record, to fill from another format (firebase-tools' CSV).
    package init() {}
}
