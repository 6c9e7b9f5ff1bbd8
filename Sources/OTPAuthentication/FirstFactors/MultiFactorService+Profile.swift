extension MultiFactorService {
    /// A signed-in user's own change of address, password, name or photo (Firebase's
    /// `accounts:update` with an ID token), in one store operation.
    ///
    /// A new address or password ends every session of the user, as an administrator's new
    /// password does, so that a stolen refresh token dies with the old credential; the user goes
    /// on in a new session with the same first and second factor. A new address is told to the
    /// previous one, with a link that changes it back (``EmailActionKind/recoverEmail``). A change
    /// of name or photo keeps the session.
    func updateProfile(
        _ user: User, email: String?, password: String?, displayName: AttributeChange<String>?, photoURL: AttributeChange<String>?
    ) async throws(AuthError) -> User {
        let session = try await liveSession(user)
        let userID = user.uid
        guard let account = try await storeCall("reading the account", { try await store.account(id: userID) }) else {
            throw AuthError(.userNotFound, "the user's account was deleted")
        }
        guard !account.isDisabled else { throw userDisabled() }
        let address = try email.map { (email) throws(AuthError) in try normalizedEmail(email) }
        // The same address again changes nothing, and so keeps its verification and the sessions.
        let newAddress = address == account.email ? nil : address
        if newAddress != nil || password != nil {
            let operation = password != nil ? "changing the password" : "changing the email address"
            try await requireCredentialChange(session, for: operation, needsSecondFactor: true)
        }
        let now = clock.now()
        // The administrator's path, with the user as the one who acts.
        var context = AuditContext.current
        context.actor = context.actor ?? .user(userID)
        let update = try await AuditContext.with(context) { () async throws(AuthError) -> AccountUpdate in
            try await administration.updateAccount(
                id: userID, email: newAddress, password: password, displayName: displayName, photoURL: photoURL,
                isEmailVerified: newAddress == nil ? nil : false, tokensValidAfter: newAddress == nil ? nil : now)
        }
        switch update {
        case .updated: break
        case .accountNotFound: throw AuthError(.userNotFound, "the user's account was deleted")
        case .emailAlreadyInUse: throw AuthError(.emailAlreadyInUse, "another account has this email address", email: newAddress)
        case .identityInUse: throw AuthError(.internalError, "the store reported a phone number conflict for a change without one")
        }
        if let newAddress { await sendAddressChangeNotice(accountID: userID, previous: account.email, current: newAddress) }
        let identity = try await currentIdentity(of: userID, provider: user.identity.provider)
        let factors = user.multiFactor.enrolledFactors
        guard newAddress != nil || password != nil else {
            return User(
                service: self, identity: identity, sessionID: user.sessionID, authenticatedAt: user.authenticatedAt,
                secondFactor: user.secondFactor, enrolledFactors: factors, sessionClaims: user.sessionClaims)
        }
        let continued = try await startSession(
            identity, at: now, authenticatedAt: user.authenticatedAt, secondFactor: user.secondFactor, enrolledFactors: factors,
            sessionClaims: user.sessionClaims)
        user.withState {
            $0.endedWith = AuthError(
                .userTokenExpired, "this session ended when the user's address or password changed: use the user update returned")
        }
        logger.info("credentials changed by the user", metadata: ["user": "\(userID)"])
        return continued
    }

    /// A signed-in user's deletion of their own account (Firebase's `accounts:delete` with an ID
    /// token), with every identity, factor and session of it.
    func deleteOwnAccount(_ user: User) async throws(AuthError) {
        try await requireCredentialChange(try await liveSession(user), for: "deleting the account")
        let userID = user.uid
        let event = auditEvent(.accountDeleted, userID: userID)
        guard try await storeCall("deleting an account", recording: event, { try await store.deleteAccount(id: userID) }) else {
            throw AuthError(.userNotFound, "the user's account was deleted already")
        }
        logger.info("account deleted by its user", metadata: ["user": "\(userID)"])
        user.withState { $0.endedWith = AuthError(.userNotFound, "this user deleted the account") }
    }
}
