/// A first-factor credential to sign in with or link to a user (Firebase's `AuthCredential`): an
/// email address and password, an address and its sign-in link, a text message's code, or a
/// federated provider's ID token.
///
/// Make one with ``EmailAuthProvider``, ``GoogleAuthProvider``, ``OAuthProvider`` or from a
/// ``PhoneAuthCredential``, then pass it to ``MultiFactorService/signIn(with:source:)`` or
/// ``User/link(with:)-(AuthCredential)``. Its ``description`` names the provider only: the password or token it
/// carries is never printed.
public struct AuthCredential: Sendable, CustomStringConvertible, CustomReflectable {
    enum Secret: Sendable {
        case password(email: String, password: String)
        case emailLink(email: String, link: String)
        case idToken(String, rawNonce: String?)
        case phone(verificationID: String, code: String)
    }

    /// The provider id (`password`, `google.com`, `oidc.…`): Firebase's `provider`.
    public let provider: String
    let secret: Secret

    init(provider: String, secret: Secret) {
        self.provider = provider
        self.secret = secret
    }

    /// The credential of a text message's code, to sign in with the number it went to or link it
    /// (Firebase's `PhoneAuthCredential`, which is an `AuthCredential` there).
    public init(_ phone: PhoneAuthCredential) {
        self.init(provider: PhoneAuthProvider.id, secret: .phone(verificationID: phone.verificationID, code: phone.verificationCode))
    }

    public var description: String { "AuthCredential(\(provider))" }

    // Without it `dump` and debuggers would show the password or the token.
    public var customMirror: Mirror { Mirror(self, children: ["provider": provider]) }
}
