/// Credentials of OpenID Connect providers by their ID tokens (Firebase's `OAuthProvider`).
///
/// The service accepts a provider's credentials only when it was given an
/// ``IdentityTokenVerifier`` for that provider id, which checks the token's signature, issuer,
/// audience and lifetime.
public enum OAuthProvider {
    /// A credential of an ID token that provider `providerID` issued (`oidc.example`,
    /// `apple.com`, `google.com`, …).
    ///
    /// - Parameters:
    ///   - providerID: The provider id the service has a verifier for.
    ///   - idToken: The provider's ID token, a signed JWT.
    ///   - rawNonce: The nonce the app sent in its authorization request, when it sent one; the
    ///     token must then carry it (or its SHA-256).
    ///   - accessToken: Accepted for Firebase's signature; the service trusts the ID token only.
    public static func credential(providerID: String, idToken: String, rawNonce: String? = nil, accessToken: String? = nil) -> AuthCredential {
        AuthCredential(provider: providerID, secret: .idToken(idToken, rawNonce: rawNonce))
    }
}

/// Credentials of Google accounts (Firebase's `GoogleAuthProvider`).
public enum GoogleAuthProvider {
    /// The provider id, `google.com`.
    public static let id = FirstFactorProvider.google.rawValue

    /// A credential of the ID token Google Sign-In returned.
    ///
    /// - Parameters:
    ///   - idToken: The ID token, a JWT Google signed.
    ///   - accessToken: Accepted for Firebase's signature; the service trusts the ID token only.
    public static func credential(withIDToken idToken: String, accessToken: String?) -> AuthCredential {
        OAuthProvider.credential(providerID: id, idToken: idToken, accessToken: accessToken)
    }
}
