/// Credentials of email-and-password accounts (Firebase's `EmailAuthProvider`).
public enum EmailAuthProvider {
    /// The provider id, `password`.
    public static let id = FirstFactorProvider.password.rawValue

    /// A credential of an email address and password, to sign in with or to link to a user (an
    /// anonymous user so keeps its uid).
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(provider: id, secret: .password(email: email, password: password))
    }

    /// A credential of an email address and the sign-in link sent to it
    /// (``MultiFactorService/sendSignInLink(toEmail:actionCodeSettings:)``), or the link's code
    /// alone: to sign in with, or to link the address to a signed-in user (Firebase's
    /// `credential(withEmail:link:)`), who then has it, verified.
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        AuthCredential(provider: id, secret: .emailLink(email: email, link: link))
    }
}
