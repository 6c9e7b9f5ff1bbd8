internal import OTPAuthentication

/// The bodies of the admin account-management endpoints (`accounts:update`, `accounts:batchGet`,
/// `accounts:batchDelete`), with firebase-admin's names.
extension Wire {
    /// `accounts:update` as an administrator sends it; `customAttributes` is one JSON object
    /// serialized as a string, as firebase-admin sends it.
    struct AdminUpdateRequest: Decodable {
        var localId: String?
        var email: String?
        var password: String?
        var displayName: String?
        var photoUrl: String?
        var phoneNumber: String?
        var emailVerified: Bool?
        var disableUser: Bool?
        var validSince: Int64Value?
        var deleteAttribute: [String]?
        var deleteProvider: [String]?
        /// Credential ids of the account's passkeys to remove, in either base64 dialect.
        var deletePasskey: [String]?
        var customAttributes: String?
        /// The second factors the account keeps (firebase-admin's `multi_factor`): those listed by
        /// `mfaEnrollmentId` stay, the others go; an empty list removes them all, recovery codes too.
        /// A listed factor's `displayName`, when given, renames it.
        var mfa: MultiFactorUpdate?

        struct MultiFactorUpdate: Decodable {
            var enrollments: [Enrollment]?

            struct Enrollment: Decodable {
                var mfaEnrollmentId: String?
                var displayName: String?
            }
        }
    }

    /// The account after the update; a user's own update that changed the address or password
    /// adds the new session's tokens, as every earlier token is then revoked.
    struct UpdateResponse: Encodable {
        var kind = "identitytoolkit#SetAccountInfoResponse"
        var localId: String
        var email: String?
        var emailVerified: Bool
        var displayName: String?
        var photoUrl: String?
        var passwordHash: String?
        var providerUserInfo: [WireUser.ProviderUserInfo]
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?

        init(_ user: WireUser) {
            localId = user.localId
            email = user.email
            emailVerified = user.emailVerified
            displayName = user.displayName
            photoUrl = user.photoUrl
            passwordHash = user.passwordHash
            providerUserInfo = user.providerUserInfo
        }
    }

    /// `accounts:batchGet`'s answer: `nextPageToken` only when another page follows.
    struct BatchGetResponse: Encodable {
        var kind = "identitytoolkit#DownloadAccountResponse"
        var users: [WireUser]?
        var nextPageToken: String?
    }

    struct BatchDeleteRequest: Decodable {
        var localIds: [String]?
        var force: Bool?
    }

    /// `accounts:batchDelete`'s answer: `errors` left out when every account went.
    struct BatchDeleteResponse: Encodable {
        struct Failure: Encodable {
            var index: Int
            var localId: String
            var message: String
        }
        var kind = "identitytoolkit#BatchDeleteAccountsResponse"
        var errors: [Failure]?
    }
}
