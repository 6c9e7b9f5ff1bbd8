/// The JSON bodies of the endpoints, with the SDKs' names. Every request field is optional, so a
/// missing one is the endpoint's own `MISSING_…` error rather than a decoding failure; fields
/// nobody reads yet (`returnSecureToken`, `clientType`, `tenantId`, …) are ignored, as unknown
/// fields are. Responses leave out what is `nil`: the SDKs test keys for presence.
enum Wire {
    struct SignUpRequest: Decodable {
        var email: String?
        var password: String?
        var displayName: String?
        var idToken: String?
        var returnSecureToken: Bool?
    }

    struct SignInWithPasswordRequest: Decodable {
        var email: String?
        var password: String?
        var returnSecureToken: Bool?
    }

    struct LookupRequest: Decodable {
        var idToken: String?
        var localId: [String]?
        var email: [String]?
        var phoneNumber: [String]?
        var federatedUserId: [FederatedUserID]?

        struct FederatedUserID: Decodable {
            var providerId: String?
            var rawId: String?
        }
    }

    struct AdminCreateRequest: Decodable {
        var localId: String?
        var email: String?
        var password: String?
        var displayName: String?
        var photoUrl: String?
        var emailVerified: Bool?
        var disabled: Bool?
        var phoneNumber: String?
    }

    // The names are the wire's: JS sends snake_case in a form, iOS camelCase in JSON.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct TokenRequest: Decodable {
        var grant_type: String?
        var grantType: String?
        var refresh_token: String?
        var refreshToken: String?
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    struct TokenResponse: Encodable {
        var id_token: String
        var access_token: String
        var expires_in: String
        var refresh_token: String
        var token_type = "Bearer"
        var user_id: String
        var project_id: String
    }

    struct DeleteRequest: Decodable {
        var localId: String?
        var idToken: String?
    }

    struct DeleteResponse: Encodable {
        var kind = "identitytoolkit#DeleteAccountResponse"
    }

    struct SignUpResponse: Encodable {
        var kind = "identitytoolkit#SignupNewUserResponse"
        var localId: String
        var email: String?
        var displayName: String?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
    }

    /// Tokens, or for a user with second factors `mfaPendingCredential` and the hints in
    /// `mfaInfo` instead: the SDKs test for the key `mfaPendingCredential`.
    struct SignInWithPasswordResponse: Encodable {
        var kind = "identitytoolkit#VerifyPasswordResponse"
        var registered = true
        var localId: String
        var email: String?
        var displayName: String?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var mfaPendingCredential: String?
        var mfaInfo: [WireMultiFactorInfo]?
    }

    struct LookupResponse: Encodable {
        var kind = "identitytoolkit#GetAccountInfoResponse"
        var users: [WireUser]?
    }

    struct Ready: Encodable {
        var ready = true
        var projectId: String
        var emulator: Bool
    }
}
