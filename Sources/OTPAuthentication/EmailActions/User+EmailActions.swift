extension User {
    /// Sends a link that verifies the user's address (Firebase's `sendEmailVerification()`).
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/missingEmail`` for an account without an
    ///   address, ``AuthErrorCode/invalidContinueURI``, ``AuthErrorCode/userTokenExpired``,
    ///   ``AuthErrorCode/tooManyRequests``, ``AuthErrorCode/operationNotAllowed`` without an
    ///   ``EmailSender``, or ``AuthErrorCode/internalError`` when the message could not be sent.
    public func sendEmailVerification(actionCodeSettings: ActionCodeSettings? = nil) async throws(AuthError) {
        _ = try await service.liveSession(self)
        try actionCodeSettings?.validate()
        let userID = uid
        guard let account = try await service.storeCall("reading the account", { try await service.store.account(id: userID) }) else {
            throw AuthError(.userNotFound, "the user's account was deleted")
        }
        guard let email = account.email else {
            throw AuthError(.missingEmail, "the account has no email address to verify: set one first")
        }
        _ = try await service.issueEmailAction(.verifyEmail, accountID: userID, email: email, settings: actionCodeSettings, sending: true)
    }

    /// Sends a link to `newEmail` that makes it the user's address once followed (Firebase's
    /// `sendEmailVerification(beforeUpdatingEmail:)`): the address changes only when its owner
    /// proves it, and the change needs a recent sign-in, with the second factor when the account
    /// has one, as every change of credential does.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``,
    ///   ``AuthErrorCode/emailAlreadyInUse``, ``AuthErrorCode/requiresRecentLogin``,
    ///   ``AuthErrorCode/userTokenExpired``, ``AuthErrorCode/tooManyRequests``,
    ///   ``AuthErrorCode/operationNotAllowed`` or ``AuthErrorCode/internalError``.
    public func sendEmailVerification(beforeUpdatingEmail newEmail: String, actionCodeSettings: ActionCodeSettings? = nil)
        async throws(AuthError)
    {
        let session = try await service.liveSession(self)
        let address = try service.normalizedEmail(newEmail)
        try actionCodeSettings?.validate()
        try await service.requireCredentialChange(session, for: "changing the email address", needsSecondFactor: true)
        let userID = uid
        guard let account = try await service.storeCall("reading the account", { try await service.store.account(id: userID) }) else {
            throw AuthError(.userNotFound, "the user's account was deleted")
        }
        if let owner = try await service.storeCall("reading an account", { try await service.store.account(email: address) }), owner.id != userID {
            throw AuthError(.emailAlreadyInUse, "another account has this email address", email: address)
        }
        _ = try await service.issueEmailAction(
            .verifyAndChangeEmail, accountID: userID, email: account.email ?? address, newEmail: address, settings: actionCodeSettings,
            sending: true)
    }
}
