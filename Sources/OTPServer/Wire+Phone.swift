/// The bodies of the phone number as a first factor: `accounts:sendVerificationCode` (iOS
/// `sendVerificationCode`) and `accounts:signInWithPhoneNumber` (iOS `verifyPhoneNumber`), with
/// the SDKs' names (`IDENTITY-TOOLKIT.md` C.8). The app-verification fields (reCAPTCHA, APNs,
/// Play Integrity) are accepted and not checked: this server has no such verifier.
extension Wire {
    struct SendVerificationCodeRequest: Decodable {
        var phoneNumber: String?
        var recaptchaToken: String?
        var captchaResponse: String?
        var clientType: String?
        var recaptchaVersion: String?
        var iosReceipt: String?
        var iosSecret: String?
        var safetyNetToken: String?
        var playIntegrityToken: String?
        var tenantId: String?
    }

    struct SendVerificationCodeResponse: Encodable {
        var sessionInfo: String
    }

    /// `sessionInfo` and `code` from a text message; `idToken` makes it a link to that user.
    /// Firebase's `temporaryProof` (a number proven earlier) is not issued by this server.
    struct SignInWithPhoneNumberRequest: Decodable {
        var sessionInfo: String?
        var code: String?
        var idToken: String?
        var operation: String?
        var temporaryProof: String?
        var phoneNumber: String?
        var tenantId: String?
    }

    /// Tokens for the sign-in or link; for a user with second factors `mfaPendingCredential` and
    /// `mfaInfo` instead.
    struct SignInWithPhoneNumberResponse: Encodable {
        var localId: String?
        var phoneNumber: String?
        var isNewUser: Bool?
        var idToken: String?
        var refreshToken: String?
        var expiresIn: String?
        var mfaPendingCredential: String?
        var mfaInfo: [WireMultiFactorInfo]?
    }
}
