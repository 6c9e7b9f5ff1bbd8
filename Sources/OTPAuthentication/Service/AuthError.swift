/// A failed multi-factor operation: a Firebase ``AuthErrorCode`` and a message that says what went
/// wrong and what to do. Messages never contain a secret or a code.
public struct AuthError: Error, Sendable, CustomStringConvertible {
    /// The Firebase error code.
    public let code: AuthErrorCode
    /// What went wrong, for a person.
    public let message: String
    /// For ``AuthErrorCode/secondFactorRequired``: what completes the sign-in (Firebase's
    /// `AuthErrorUserInfoMultiFactorResolverKey`).
    public let resolver: MultiFactorResolver?
    /// For ``AuthErrorCode/internalError``: the failure behind it (a store's error, for the host's
    /// own logs; Firebase's `NSUnderlyingErrorKey`). Never part of ``message`` or ``description``,
    /// which a host may show its clients.
    public let underlyingError: (any Error)?
    /// For ``AuthErrorCode/credentialAlreadyInUse`` and
    /// ``AuthErrorCode/accountExistsWithDifferentCredential``: the credential that was refused, to
    /// sign in with instead (Firebase's `AuthErrorUserInfoUpdatedCredentialKey`).
    public let updatedCredential: AuthCredential?
    /// For ``AuthErrorCode/accountExistsWithDifferentCredential`` and
    /// ``AuthErrorCode/emailAlreadyInUse``: the address concerned (Firebase's `AuthErrorUserInfoEmailKey`).
    public let email: String?

    /// Creates an error.
    public init(
        _ code: AuthErrorCode, _ message: String, resolver: MultiFactorResolver? = nil, underlyingError: (any Error)? = nil,
        updatedCredential: AuthCredential? = nil, email: String? = nil
    ) {
        self.code = code
        self.message = message
        self.resolver = resolver
        self.underlyingError = underlyingError
        self.updatedCredential = updatedCredential
        self.email = email
    }

    public var description: String { "\(message) [\(code.serverCode), \(code.rawValue)]" }
}
