extension Wire {
    /// `accounts:sendOobCode` (iOS `getOobConfirmationCode`) as the SDKs and firebase-admin send
    /// it; the app-specific fields of `ActionCodeSettings` (bundle ids, link domains) are read and
    /// have no effect.
    struct SendOobCodeRequest: Decodable {
        var requestType: String?
        var email: String?
        var idToken: String?
        var newEmail: String?
        var continueUrl: String?
        var canHandleCodeInApp: Bool?
        var returnOobLink: Bool?
    }

    struct SendOobCodeResponse: Encodable {
        var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
        var email: String?
        var oobCode: String?
        var oobLink: String?
    }

    /// `accounts:resetPassword` (iOS `resetPassword`): with `newPassword` a reset, without it a
    /// look at what the code does (JS `checkActionCode`).
    struct ResetPasswordRequest: Decodable {
        var oobCode: String?
        var newPassword: String?
    }

    struct ResetPasswordResponse: Encodable {
        var kind = "identitytoolkit#ResetPasswordResponse"
        var requestType: String
        var email: String?
        var newEmail: String?
    }

    /// `accounts:signInWithEmailLink` (iOS `emailLinkSignin`).
    struct SignInWithEmailLinkRequest: Decodable {
        var email: String?
        var oobCode: String?
        var idToken: String?
    }

    struct SignInWithEmailLinkResponse: Encodable {
        var kind = "identitytoolkit#EmailLinkSigninResponse"
        var localId: String
        var email: String
        var isNewUser: Bool
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var mfaPendingCredential: String?
        var mfaInfo: [WireMultiFactorInfo]?
    }

    /// `GET /emulator/v1/projects/{project}/oobCodes`, as the Auth emulator lists them.
    struct OobCodes: Encodable {
        struct Entry: Encodable {
            var email: String
            var oobCode: String
            var oobLink: String
            var requestType: String
        }
        var oobCodes: [Entry]
    }
}
