extension User {
    /// The identities linked to the user's account (Firebase's `providerData`), as of this user's
    /// sign-in, link or unlink; a password appears as provider `password` with the address.
    public var providerData: [ProviderIdentity] { identity.providerData }

    /// Whether the user signed in anonymously and has linked nothing since (Firebase's `isAnonymous`).
    public var isAnonymous: Bool { identity.provider == .anonymous }

    /// Links a credential to the user's account (Firebase's `link(with:)`): a password with its
    /// address, a federated provider's identity, or a phone number. An anonymous user keeps its uid and becomes a
    /// user of the linked provider.
    ///
    /// The user continues in a new session, returned in the result; this object's session ends.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/providerAlreadyLinked`` (the user has a
    ///   password, or an identity of that provider, already), ``AuthErrorCode/credentialAlreadyInUse``
    ///   (the identity is some account's; ``AuthError/updatedCredential`` carries the credential
    ///   back to sign in with instead), ``AuthErrorCode/emailAlreadyInUse``,
    ///   ``AuthErrorCode/weakPassword``, ``AuthErrorCode/invalidEmail``,
    ///   ``AuthErrorCode/invalidCredential``, ``AuthErrorCode/invalidProviderID``,
    ///   ``AuthErrorCode/userDisabled``, ``AuthErrorCode/userNotFound`` (a user the host signed in
    ///   itself, without an account), or ``AuthErrorCode/requiresRecentLogin`` when the user
    ///   signed in longer ago than ``MultiFactorConfiguration/recentLoginWindow`` (see
    ///   ``MultiFactorConfiguration/credentialChangesRequireRecentLogin``).
    public func link(with credential: AuthCredential) async throws(AuthError) -> AuthDataResult {
        try await service.link(self, with: credential)
    }

    /// Links the phone number a text message's code proves (sent by
    /// ``PhoneAuthProvider/verifyPhoneNumber(_:)``) to the user's account, as
    /// ``link(with:)-(AuthCredential)`` does.
    public func link(with credential: PhoneAuthCredential) async throws(AuthError) -> AuthDataResult {
        try await service.link(self, with: AuthCredential(credential))
    }

    /// Removes the identity of `provider` from the user's account (Firebase's
    /// `unlink(fromProvider:)`). Unlinking `password` removes the password and the address.
    ///
    /// - Returns: The user as it is now, in the same session.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/noSuchProvider`` when the account has no
    ///   identity of `provider`, ``AuthErrorCode/requiresRecentLogin`` as for linking.
    public func unlink(fromProvider provider: String) async throws(AuthError) -> User {
        try await service.unlink(self, fromProvider: provider)
    }
}
