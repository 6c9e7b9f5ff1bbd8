/// The bodies of the v2 multi-factor endpoints (`mfaEnrollment:*`, `mfaSignIn:*`), with the SDKs'
/// names. Verifier fields of phone requests (`recaptchaToken`, `iosReceipt`, …) are ignored, as the
/// emulator ignores them.
extension Wire {
    struct PhoneInfo: Decodable {
        var phoneNumber: String?
    }

    /// `totpEnrollmentInfo` is `{}`: only its presence matters, but it must be an object.
    struct TOTPEnrollmentInfo: Decodable {
        private struct NoKeys: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        // The synthesized decoder of a struct without fields reads nothing, so it would take an
        // array or a number too.
        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: NoKeys.self)
        }
    }

    struct EnrollmentStartRequest: Decodable {
        var idToken: String?
        var phoneEnrollmentInfo: PhoneInfo?
        var totpEnrollmentInfo: TOTPEnrollmentInfo?
        /// OTPKit's own: a passkey as the second factor (`{}`).
        var webauthnEnrollmentInfo: WebAuthnInfo?
    }

    /// OTPKit's own: the start of a passkey factor's enrollment or sign-in (`{}`).
    struct WebAuthnInfo: Decodable {}

    /// OTPKit's own: an authenticator's response for a passkey factor.
    struct WebAuthnVerificationInfo: Decodable {
        var authenticatorRegistrationResponse: PublicKeyCredential<AttestationResponse>?
        var authenticatorAuthenticationResponse: PublicKeyCredential<AssertionResponse>?
    }

    struct PhoneVerificationInfo: Decodable {
        var sessionInfo: String?
        var code: String?
    }

    struct TOTPVerificationInfo: Decodable {
        var sessionInfo: String?
        var verificationCode: String?
        var mfaEnrollmentId: String?
    }

    struct EnrollmentFinalizeRequest: Decodable {
        var idToken: String?
        var displayName: String?
        var phoneVerificationInfo: PhoneVerificationInfo?
        var totpVerificationInfo: TOTPVerificationInfo?
        var webauthnVerificationInfo: WebAuthnVerificationInfo?
    }

    struct WithdrawRequest: Decodable {
        var idToken: String?
        var mfaEnrollmentId: String?
    }

    struct SignInStartRequest: Decodable {
        var mfaPendingCredential: String?
        var mfaEnrollmentId: String?
        var phoneSignInInfo: PhoneInfo?
        var webauthnSignInInfo: WebAuthnInfo?
    }

    /// OTPKit's own: a recovery code in place of a second factor's.
    struct RecoveryCodeVerificationInfo: Decodable {
        var code: String?
    }

    struct SignInFinalizeRequest: Decodable {
        var mfaPendingCredential: String?
        var mfaEnrollmentId: String?
        var phoneVerificationInfo: PhoneVerificationInfo?
        var totpVerificationInfo: TOTPVerificationInfo?
        var recoveryCodeVerificationInfo: RecoveryCodeVerificationInfo?
        var webauthnVerificationInfo: WebAuthnVerificationInfo?
    }

    struct RecoveryCodesRequest: Decodable {
        var idToken: String?
    }

    /// Shown once; the server keeps only their digests.
    struct RecoveryCodesResponse: Encodable {
        var recoveryCodes: [String]
    }

    struct PhoneSessionInfo: Encodable {
        var sessionInfo: String
    }

    struct TOTPSessionInfo: Encodable {
        var sharedSecretKey: String
        var verificationCodeLength: Int
        var hashingAlgorithm: String
        var periodSec: Int
        var sessionInfo: String
        var finalizeEnrollmentTime: String
    }

    /// One of the two keys, as iOS requires one of them.
    struct EnrollmentStartResponse: Encodable {
        var phoneSessionInfo: PhoneSessionInfo?
        var totpSessionInfo: TOTPSessionInfo?
        var webauthnSessionInfo: WebAuthnSessionInfo?
    }

    /// OTPKit's own: the options of a passkey factor's enrollment.
    struct WebAuthnSessionInfo: Encodable {
        var credentialCreationOptions: CreationOptions
    }

    /// OTPKit's own: the options of a passkey factor's sign-in step.
    struct WebAuthnResponseInfo: Encodable {
        var credentialRequestOptions: RequestOptions
    }

    struct SignInStartResponse: Encodable {
        var phoneResponseInfo: PhoneSessionInfo?
        var webauthnResponseInfo: WebAuthnResponseInfo?
    }

    /// What finalize and withdraw answer: the session's new tokens.
    struct TokensResponse: Encodable {
        var idToken: String
        var refreshToken: String
    }

    struct VerificationCodes: Encodable {
        struct Code: Encodable {
            var code: String
            var phoneNumber: String
            var sessionInfo: String
        }
        var verificationCodes: [Code]
    }
}
