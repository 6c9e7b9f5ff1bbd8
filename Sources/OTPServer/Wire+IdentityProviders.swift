internal import OTPAuthentication

/// The bodies of `accounts:signInWithIdp` (iOS `verifyAssertion`) and of `accounts:update` with an
/// ID token (iOS `setAccountInfo`), with the SDKs' names (`IDENTITY-TOOLKIT.md` C.5, C.7).
extension Wire {
    /// The credential is in `postBody`, form-encoded as the SDKs build it
    /// (`id_token=…&access_token=…&providerId=google.com[&nonce=…]`); `idToken`, the user's
    /// Firebase ID token, makes the request a link.
    struct SignInWithIdpRequest: Decodable {
        var requestUri: String?
        var postBody: String?
        var idToken: String?
        var returnIdpCredential: Bool?
        var returnSecureToken: Bool?
        var autoCreate: Bool?
        var pendingToken: String?
        var sessionId: String?
        var tenantId: String?
    }

    /// Tokens for a sign-in or link; for a user with second factors `mfaPendingCredential` and
    /// `mfaInfo` instead; `needConfirmation` when the identity's address belongs to another
    /// account; `errorMessage` (HTTP 200) for an identity linked elsewhere when the client asked
    /// for the IdP credential back. Absent keys, never nulls: the SDKs test for presence.
    struct SignInWithIdpResponse: Encodable {
        var kind = "identitytoolkit#VerifyAssertionResponse"
        var providerId: String
        var federatedId: String
        var localId: String?
        var email: String?
        var emailVerified: Bool?
        var displayName: String?
        var fullName: String?
        var photoUrl: String?
        var rawUserInfo: String?
        var oauthIdToken: String?
        var isNewUser: Bool?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var mfaPendingCredential: String?
        var mfaInfo: [WireMultiFactorInfo]?
        var needConfirmation: Bool?
        var errorMessage: String?
    }

    /// `accounts:update` as a signed-in user sends it. The administrator's fields are read to
    /// refuse them rather than to ignore them.
    struct UpdateRequest: Decodable {
        var idToken: String?
        var oobCode: String?
        var email: String?
        var password: String?
        var displayName: String?
        var photoUrl: String?
        var deleteAttribute: [String]?
        var deleteProvider: [String]?
        /// Credential ids of the user's passkeys to remove, in either base64 dialect.
        var deletePasskey: [String]?
        var returnSecureToken: Bool?
        var localId: String?
        var customAttributes: String?
        var disableUser: Bool?
        var emailVerified: Bool?
        var phoneNumber: String?
        var validSince: Int64Value?
    }
}
