/// The error codes of Firebase Authentication's iOS SDK that multi-factor operations produce, with
/// Firebase's raw values, so hosts can map them one to one.
public enum AuthErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// The email address or password is wrong, or no account has the address, told apart no
    /// further under email enumeration protection (`INVALID_LOGIN_CREDENTIALS`).
    case invalidCredential = 17004
    /// The account is disabled (`USER_DISABLED`).
    case userDisabled = 17005
    /// Another account has the email address (`EMAIL_EXISTS`).
    case emailAlreadyInUse = 17007
    /// The email address is malformed (`INVALID_EMAIL`).
    case invalidEmail = 17008
    /// The password is wrong (`INVALID_PASSWORD`), without enumeration protection.
    case wrongPassword = 17009
    /// No account has the email address (`EMAIL_NOT_FOUND`), without enumeration protection.
    case userNotFound = 17011
    /// The password is too short (`WEAK_PASSWORD`).
    case weakPassword = 17026
    /// An account has the email address a federated provider asserted, and the service did not
    /// link them (the provider does not vouch for the address, or the account's address is not
    /// verified): sign in with that account's method, then link (`NEED_CONFIRMATION`).
    /// ``AuthError/email`` and ``AuthError/updatedCredential`` say which address and credential.
    case accountExistsWithDifferentCredential = 17012
    /// The user already has an identity of this provider, or a password (`PROVIDER_ALREADY_LINKED`).
    case providerAlreadyLinked = 17015
    /// The user has no identity of this provider to unlink (`NO_SUCH_PROVIDER`).
    case noSuchProvider = 17016
    /// The credential's identity belongs to an account already, this or another
    /// (`FEDERATED_USER_ID_ALREADY_LINKED`); ``AuthError/updatedCredential`` carries it back to
    /// sign in with instead.
    case credentialAlreadyInUse = 17025
    /// The credential names a provider the service has no verifier for (`INVALID_PROVIDER_ID`).
    case invalidProviderID = 17071
    /// TOTP is disabled for the project (server code `OPERATION_NOT_ALLOWED`).
    case operationNotAllowed = 17006
    /// Too many failed attempts; try again later (`TOO_MANY_ATTEMPTS_TRY_LATER`).
    case tooManyRequests = 17010
    /// The operation needs a recent sign-in (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`).
    case requiresRecentLogin = 17014
    /// The session's token is no longer valid; the user must sign in again (`INVALID_ID_TOKEN`).
    case invalidUserToken = 17017
    /// The session was revoked or has expired; the user must sign in again (`TOKEN_EXPIRED`).
    case userTokenExpired = 17021
    /// The verification code is missing (`MISSING_CODE`).
    case missingVerificationCode = 17043
    /// The verification code is wrong, malformed, outside the window or already used (`INVALID_CODE`).
    case invalidVerificationCode = 17044
    /// The assertion carries no enrollment session info (`MISSING_SESSION_INFO`).
    case missingVerificationID = 17045
    /// The enrollment session info is unknown or belongs to someone else (`INVALID_SESSION_INFO`).
    case invalidVerificationID = 17046
    /// The enrollment or sign-in session has expired (`SESSION_EXPIRED`).
    case sessionExpired = 17051
    /// The first factor passed; a second factor is required (see ``AuthError/resolver``).
    case secondFactorRequired = 17078
    /// No multi-factor session was given (`MISSING_MFA_PENDING_CREDENTIAL`).
    case missingMultiFactorSession = 17081
    /// The assertion names no enrolled factor (`MISSING_MFA_ENROLLMENT_ID`).
    case missingMultiFactorInfo = 17082
    /// The multi-factor session is invalid or was already used (`INVALID_MFA_PENDING_CREDENTIAL`).
    case invalidMultiFactorSession = 17083
    /// No such enrolled factor (`MFA_ENROLLMENT_NOT_FOUND`).
    case multiFactorInfoNotFound = 17084
    /// The email address must be verified before enrolling (`UNVERIFIED_EMAIL`).
    case unverifiedEmail = 17086
    /// The phone number cannot be read as E.164 (`INVALID_PHONE_NUMBER`).
    case invalidPhoneNumber = 17042
    /// A text-message quota (a daily cap per number) is used up (`QUOTA_EXCEEDED`).
    case quotaExceeded = 17052
    /// The second factor is already enrolled (`SECOND_FACTOR_EXISTS`).
    case secondFactorAlreadyEnrolled = 17087
    /// The user already has the maximum number of second factors (`SECOND_FACTOR_LIMIT_EXCEEDED`).
    case maximumSecondFactorCountExceeded = 17088
    /// The first factor cannot be combined with multi-factor authentication (`UNSUPPORTED_FIRST_FACTOR`).
    case unsupportedFirstFactor = 17089
    /// A custom token is malformed, expired, not signed by a trusted service account, or names no
    /// usable user id (`INVALID_CUSTOM_TOKEN`).
    case invalidCustomToken = 17000
    /// An email action's code is unknown, was used, or is not for this action (`INVALID_OOB_CODE`).
    case invalidActionCode = 17030
    /// An email action's code expired (`EXPIRED_OOB_CODE`).
    case expiredActionCode = 17029
    /// The account has no email address for the action (`MISSING_EMAIL`).
    case missingEmail = 17034
    /// An action's continue URL is not an absolute URL (`INVALID_CONTINUE_URI`).
    case invalidContinueURI = 17039
    /// A passkey's response failed a WebAuthn check, or answers no ceremony this server started
    /// (`INVALID_AUTHENTICATOR_RESPONSE`; iOS's `invalidAuthenticatorResponse`).
    case invalidAuthenticatorResponse = 17211
    /// No passkey has the credential an assertion names (`PASSKEY_ENROLLMENT_NOT_FOUND`; iOS's
    /// `missingPasskeyEnrollment`).
    case missingPasskeyEnrollment = 17212
    /// The server offers no passkeys (`PASSKEY_NOT_ENABLED`). This and the next three raw values
    /// are OTPKit's: iOS has no code for them and reports them as its internal error.
    case passkeyNotEnabled = 17213
    /// The user has as many passkeys as allowed (`PASSKEY_LIMIT_EXCEEDED`).
    case passkeyLimitExceeded = 17214
    /// The credential is registered already (`PASSKEY_EXISTS`).
    case passkeyExists = 17215
    /// The ceremony's challenge expired (`PASSKEY_CHALLENGE_TIMEOUT`).
    case passkeyChallengeTimeout = 17216
    /// The store failed (`INTERNAL_ERROR`).
    case internalError = 17999

    /// The Identity Toolkit server code Firebase's backend answers with for this error.
    public var serverCode: String {
        switch self {
        case .invalidCredential: "INVALID_LOGIN_CREDENTIALS"
        case .userDisabled: "USER_DISABLED"
        case .emailAlreadyInUse: "EMAIL_EXISTS"
        case .invalidEmail: "INVALID_EMAIL"
        case .wrongPassword: "INVALID_PASSWORD"
        case .userNotFound: "EMAIL_NOT_FOUND"
        case .weakPassword: "WEAK_PASSWORD"
        case .accountExistsWithDifferentCredential: "NEED_CONFIRMATION"
        case .providerAlreadyLinked: "PROVIDER_ALREADY_LINKED"
        case .noSuchProvider: "NO_SUCH_PROVIDER"
        case .credentialAlreadyInUse: "FEDERATED_USER_ID_ALREADY_LINKED"
        case .invalidProviderID: "INVALID_PROVIDER_ID"
        case .operationNotAllowed: "OPERATION_NOT_ALLOWED"
        case .tooManyRequests: "TOO_MANY_ATTEMPTS_TRY_LATER"
        case .requiresRecentLogin: "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
        case .invalidUserToken: "INVALID_ID_TOKEN"
        case .userTokenExpired: "TOKEN_EXPIRED"
        case .missingVerificationCode: "MISSING_CODE"
        case .invalidVerificationCode: "INVALID_CODE"
        case .missingVerificationID: "MISSING_SESSION_INFO"
        case .invalidVerificationID: "INVALID_SESSION_INFO"
        case .sessionExpired: "SESSION_EXPIRED"
        case .secondFactorRequired: "SECOND_FACTOR_REQUIRED"
        case .missingMultiFactorSession: "MISSING_MFA_PENDING_CREDENTIAL"
        case .missingMultiFactorInfo: "MISSING_MFA_ENROLLMENT_ID"
        case .invalidMultiFactorSession: "INVALID_MFA_PENDING_CREDENTIAL"
        case .multiFactorInfoNotFound: "MFA_ENROLLMENT_NOT_FOUND"
        case .unverifiedEmail: "UNVERIFIED_EMAIL"
        case .secondFactorAlreadyEnrolled: "SECOND_FACTOR_EXISTS"
        case .invalidPhoneNumber: "INVALID_PHONE_NUMBER"
        case .quotaExceeded: "QUOTA_EXCEEDED"
        case .maximumSecondFactorCountExceeded: "SECOND_FACTOR_LIMIT_EXCEEDED"
        case .unsupportedFirstFactor: "UNSUPPORTED_FIRST_FACTOR"
        case .invalidCustomToken: "INVALID_CUSTOM_TOKEN"
        case .invalidActionCode: "INVALID_OOB_CODE"
        case .expiredActionCode: "EXPIRED_OOB_CODE"
        case .missingEmail: "MISSING_EMAIL"
        case .invalidContinueURI: "INVALID_CONTINUE_URI"
        case .invalidAuthenticatorResponse: "INVALID_AUTHENTICATOR_RESPONSE"
        case .missingPasskeyEnrollment: "PASSKEY_ENROLLMENT_NOT_FOUND"
        case .passkeyNotEnabled: "PASSKEY_NOT_ENABLED"
        case .passkeyLimitExceeded: "PASSKEY_LIMIT_EXCEEDED"
        case .passkeyExists: "PASSKEY_EXISTS"
        case .passkeyChallengeTimeout: "PASSKEY_CHALLENGE_TIMEOUT"
        case .internalError: "INTERNAL_ERROR"
        }
    }
}
