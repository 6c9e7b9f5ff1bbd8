extension User {
    /// Changes the user's own address, password, display name or photo URL in one store operation
    /// (Firebase's `updateEmail`, `updatePassword` and `updateProfile`, which the SDKs send as one
    /// `accounts:update`). A `nil` argument leaves the attribute as it is.
    ///
    /// A new address (unverified until proven) or password ends every session of the user, this
    /// one included, and the user continues in a new session with the same first and second factor,
    /// returned; other changes keep this session.
    ///
    /// - Returns: The user as it is now.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/weakPassword``,
    ///   ``AuthErrorCode/emailAlreadyInUse``, ``AuthErrorCode/operationNotAllowed`` (a password for
    ///   an account without an address), ``AuthErrorCode/userDisabled`` or
    ///   ``AuthErrorCode/userTokenExpired``; nothing is written then.
    public func update(
        email: String? = nil, password: String? = nil, displayName: AttributeChange<String>? = nil, photoURL: AttributeChange<String>? = nil
    ) async throws(AuthError) -> User {
        try await service.updateProfile(self, email: email, password: password, displayName: displayName, photoURL: photoURL)
    }

    /// Deletes the user's account with its identities, second factors and sessions (Firebase's
    /// `User.delete()`).
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/requiresRecentLogin`` when the user signed in
    ///   longer ago than ``MultiFactorConfiguration/recentLoginWindow``,
    ///   ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/userNotFound``; nothing is deleted then.
    public func delete() async throws(AuthError) {
        try await service.deleteOwnAccount(self)
    }
}
