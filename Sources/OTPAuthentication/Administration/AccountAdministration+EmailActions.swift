extension AccountAdministration {
    /// A link of `kind` for `email`, made for the operator to hand on and not sent
    /// (firebase-admin's `generate_password_reset_link`, `generate_email_verification_link` and
    /// `generate_sign_in_with_email_link`; no mail sender is needed), or with `sending` sent to
    /// the address as the user's own request would be.
    ///
    /// - Parameters:
    ///   - kind: ``EmailActionKind/passwordReset``, ``EmailActionKind/verifyEmail`` or
    ///     ``EmailActionKind/emailSignIn``; ``EmailActionKind/verifyAndChangeEmail`` also takes
    ///     `newEmail`.
    ///   - email: The account's address (for a sign-in link, any address).
    ///   - newEmail: The address a change of address leads to.
    ///   - actionCodeSettings: Where the user continues afterwards.
    ///   - sending: Whether the message is sent, throttled per address, through the service's
    ///     ``EmailSender``.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/userNotFound``
    ///   (no account has the address; a sign-in link needs none), ``AuthErrorCode/emailAlreadyInUse``,
    ///   ``AuthErrorCode/invalidContinueURI``, or ``AuthErrorCode/operationNotAllowed`` for
    ///   ``EmailActionKind/recoverEmail``, which no one asks for.
    public func emailActionLink(
        _ kind: EmailActionKind, email: String, newEmail: String? = nil, actionCodeSettings: ActionCodeSettings? = nil, sending: Bool = false
    ) async throws(AuthError) -> EmailActionLink {
        let address = try service.normalizedEmail(email)
        try actionCodeSettings?.validate()
        let account = try await service.storeCall("reading an account") { try await service.store.account(email: address) }
        var changedTo: String?
        switch kind {
        case .emailSignIn:
            break
        case .passwordReset, .verifyEmail:
            guard account != nil else { throw AuthError(.userNotFound, "no account has this email address", email: address) }
        case .verifyAndChangeEmail:
            guard let account else { throw AuthError(.userNotFound, "no account has this email address", email: address) }
            guard let newEmail else { throw AuthError(.invalidEmail, "a change of address needs the new address") }
            let target = try service.normalizedEmail(newEmail)
            if let owner = try await service.storeCall("reading an account", { try await service.store.account(email: target) }),
                owner.id != account.id
            {
                throw AuthError(.emailAlreadyInUse, "another account has this email address", email: target)
            }
            changedTo = target
        case .recoverEmail:
            throw AuthError(
                .operationNotAllowed, "a link that restores an address is made when a user changes theirs, not on request")
        }
        return try await service.issueEmailAction(
            kind, accountID: account?.id, email: address, newEmail: changedTo, settings: actionCodeSettings, sending: sending)
    }
}
