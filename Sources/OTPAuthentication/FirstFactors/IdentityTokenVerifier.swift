/// Checks the ID tokens of one federated identity provider (Google, or any OpenID Connect
/// provider) before ``MultiFactorService`` trusts who they name.
///
/// OTPAuthentication itself verifies no token: the verifier of `OTPFederation` checks signatures
/// against the provider's published keys, issuer, audience and lifetime, and a host may bring its
/// own. Give the service one verifier per provider id it accepts.
public protocol IdentityTokenVerifier: Sendable {
    /// The provider id whose credentials this verifier checks (`google.com`, `oidc.example`).
    var providerID: String { get }

    /// Checks `idToken` and returns the identity it asserts.
    ///
    /// - Parameters:
    ///   - idToken: The ID token the app received from the provider.
    ///   - nonce: The raw nonce the app sent to the provider, when it sent one: the token's
    ///     `nonce` claim must then be it (or its SHA-256, as Apple and Firebase use).
    /// - Throws: ``IdentityTokenError/rejected(_:)`` when the token is not valid,
    ///   ``IdentityTokenError/keysUnavailable(_:)`` when the provider's keys could not be read.
    func verify(idToken: String, nonce: String?) async throws(IdentityTokenError) -> VerifiedIdentity
}

/// Who a verified ID token names: the claims a user record takes from it.
public struct VerifiedIdentity: Sendable, Hashable {
    /// The user's id at the provider (the `sub` claim).
    public var subject: String
    /// The `email` claim, if any.
    public var email: String?
    /// The `email_verified` claim: whether the provider vouches for the address.
    public var isEmailVerified: Bool
    /// The `name` claim, if any.
    public var displayName: String?
    /// The `picture` claim, if any.
    public var photoURL: String?

    /// An identity.
    public init(subject: String, email: String? = nil, isEmailVerified: Bool = false, displayName: String? = nil, photoURL: String? = nil) {
        self.subject = subject
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.displayName = displayName
        self.photoURL = photoURL
    }
}

/// Why an ``IdentityTokenVerifier`` did not accept a token. The text says what was wrong and never
/// contains the token.
public enum IdentityTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token is not valid: malformed, signed by no key of the provider, issued for another
    /// audience or by another issuer, expired, or not yet valid.
    case rejected(String)
    /// The provider's keys could not be fetched or read: no statement about the token.
    case keysUnavailable(String)

    public var description: String {
        switch self {
        case .rejected(let reason): "the ID token was refused: \(reason)"
        case .keysUnavailable(let reason): "the identity provider's keys are unavailable: \(reason)"
        }
    }
}
