/// What an email action's code does when it is used: Firebase's `requestType` of
/// `accounts:sendOobCode`, and the `mode` of the link the message carries.
public enum EmailActionKind: String, Sendable, Hashable, CaseIterable {
    /// Sets a new password (Firebase's `sendPasswordReset(withEmail:)`, `confirmPasswordReset`).
    case passwordReset = "PASSWORD_RESET"
    /// Marks the address verified (`sendEmailVerification()`, `applyActionCode`).
    case verifyEmail = "VERIFY_EMAIL"
    /// Signs in with the address alone, creating the account when there is none
    /// (`sendSignInLink(toEmail:)`, `signIn(withEmail:link:)`).
    case emailSignIn = "EMAIL_SIGNIN"
    /// Replaces the address with a new one once the new one is proven
    /// (`sendEmailVerification(beforeUpdatingEmail:)`, `applyActionCode`).
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    /// Changes the address back after a change its owner may not have made: sent to the previous
    /// address whenever a user changes theirs, never on request (`checkActionCode`,
    /// `applyActionCode`).
    case recoverEmail = "RECOVER_EMAIL"

    /// The link's `mode` parameter, which Firebase's SDKs read to tell the actions apart.
    public var mode: String {
        switch self {
        case .passwordReset: "resetPassword"
        case .verifyEmail: "verifyEmail"
        case .emailSignIn: "signIn"
        case .verifyAndChangeEmail: "verifyAndChangeEmail"
        case .recoverEmail: "recoverEmail"
        }
    }
}
