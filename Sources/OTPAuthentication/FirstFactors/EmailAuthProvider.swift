/// Credentials of email-and-password accounts (Firebase's `EmailAuthProvider`).
public enum EmailAuthProvider {
    /// The provider id, `password`.
    public static let id = FirstFactorProvider.password.rawValue

    /// A credential of an email address and password, to sign in with or to link to a user (an
    /// anonymous user so keeps its uid).
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(provider: id, secret: .password(email: email, password: password))
    }
}
