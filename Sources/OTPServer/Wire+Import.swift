extension Wire {
    /// `accounts:batchCreate` as firebase-admin's `import_users` sends it; only what this server
    /// reads is named, and unknown keys are ignored as elsewhere.
    struct BatchCreateRequest: Decodable {
        struct User: Decodable {
            struct Provider: Decodable {
                var providerId: String?
                var rawId: String?
                var email: String?
                var displayName: String?
            }

            /// Only counted: second factors are not imported.
            /// One of `mfaInfo`: a phone factor as Firebase exports it (`phoneInfo`), or a TOTP
            /// factor with OTPKit's extension of `totpInfo`, the shared secret in base32
            /// (`sharedSecretKey`, as `mfaEnrollment:start` hands it out).
            struct SecondFactor: Decodable {
                struct TOTPInfo: Decodable {
                    var sharedSecretKey: String?
                }
                var mfaEnrollmentId: String?
                var displayName: String?
                /// RFC 3339, as Firebase writes it.
                var enrolledAt: String?
                var phoneInfo: String?
                var totpInfo: TOTPInfo?
            }

            var localId: String?
            var email: String?
            var emailVerified: Bool?
            /// Base64, standard or URL-safe (firebase-admin sends the latter).
            var passwordHash: String?
            var salt: String?
            var displayName: String?
            var photoUrl: String?
            var disabled: Bool?
            /// Milliseconds.
            var createdAt: Int64Value?
            var lastLoginAt: Int64Value?
            var phoneNumber: String?
            var customAttributes: String?
            var providerUserInfo: [Provider]?
            var mfaInfo: [SecondFactor]?
        }

        var users: [User]?
        var hashAlgorithm: String?
        /// STANDARD_SCRYPT's N, block size, parallelism and derived key length.
        var cpuMemCost: Int64Value?
        var blockSize: Int64Value?
        var parallelization: Int64Value?
        var dkLen: Int64Value?
        /// SCRYPT's (Firebase's own): the project's signer key and salt separator (base64), rounds
        /// and memory cost.
        var signerKey: String?
        var saltSeparator: String?
        var rounds: Int64Value?
        var memoryCost: Int64Value?
        var allowOverwrite: Bool?
        /// For the plain digests: `SALT_AND_PASSWORD` (the default) or `PASSWORD_AND_SALT`.
        var passwordHashOrder: String?
    }

    struct BatchCreateResponse: Encodable {
        struct Failure: Encodable {
            var index: Int
            var message: String
        }

        var kind = "identitytoolkit#UploadAccountResponse"
        /// Left out when every account was made.
        var error: [Failure]?
    }
}

extension Wire {
    /// What the legacy v3 admin calls add to their v1 bodies.
    struct LegacyAdminRequest: Decodable {
        var targetProjectId: String?
        var maxResults: Int64Value?
        var nextPageToken: String?
    }
}
