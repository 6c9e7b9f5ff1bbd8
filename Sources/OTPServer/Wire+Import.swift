internal import OTPAuthentication

extension Wire {
    /// `accounts:batchCreate` as firebase-admin's `import_users` sends it; only what this server
    /// reads is named, and unknown keys are ignored as elsewhere.
    struct BatchCreateRequest: Decodable {
        var users: [FirebaseUserRecord]?
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

        /// The hash algorithm and its parameters.
        var hashing: FirebaseImportHashing.Parameters {
            var parameters = FirebaseImportHashing.Parameters()
            parameters.algorithm = hashAlgorithm
            parameters.signerKey = signerKey
            parameters.saltSeparator = saltSeparator
            parameters.rounds = rounds?.value
            parameters.memoryCost = memoryCost?.value
            parameters.cpuMemCost = cpuMemCost?.value
            parameters.blockSize = blockSize?.value
            parameters.parallelization = parallelization?.value
            parameters.dkLen = dkLen?.value
            parameters.passwordHashOrder = passwordHashOrder
            return parameters
        }
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
