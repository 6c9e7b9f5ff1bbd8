/// A first-factor credential to sign in with or link to a user (Firebase's `AuthCredential`): an
/// email address and password, or a federated provider's ID token.
///
/// Make one with ``EmailAuthProvider``, ``GoogleAuthProvider`` or ``OAuthProvider``, then pass it to ``MultiFactorService/signIn(with:source:)`` or
/// ``User/link(with:)``. Its ``description`` names the provider only: the password or token it
/// carries is never printed.
public struct AuthCredential: Sendable, CustomStringConvertible, CustomReflectable {
    enum Secret: Sendable {
        case password(email: String, password: String)
        case idToken(String, rawNonce: String?)
    }

    /// The provider id (`password`, `google.com`, `oidc.…`): Firebase's `provider`.
    public let provider: String
    let secret: Secret

    init(provider: String, secret: Secret) {
        self.provider = provider
        self.secret = secret
    }

    public var description: String { "AuthCredential(\(provider))" }

    // Without it `dump` and debuggers would show the password or the token.
    public var customMirror: Mirror { Mirror(self, children: ["provider": provider]) }
}
