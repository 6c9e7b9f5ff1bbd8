extension MultiFactorService {
    /// `accounts:signUp` / `accounts:signInWithIdp` with the user's ID token: one store operation
    /// links the credential, then the user continues in a new session that knows it.
    func link(_ user: User, with credential: AuthCredential) async throws(AuthError) -> AuthDataResult {
        try await requireCredentialChange(try await liveSession(user), for: "linking a credential")
        let now = clock.now()
        let account = try await linkableAccount(user)
        switch credential.secret {
        case .password(let email, let password):
            let address = try normalizedEmail(email)
            try checkNewPassword(password)
            // The store decides, but what it would refuse is refused before the hash's cost.
            guard account.passwordHash == nil else {
                throw AuthError(.providerAlreadyLinked, "the user has a password already: unlink it before linking another")
            }
            if let owner = try await storeCall("reading an account", { try await store.account(email: address) }), owner.id != account.id {
                throw AuthError(.emailAlreadyInUse, "another account has this email address", email: address)
            }
            let hash = try await newPasswordHash(password)
            let event = auditEvent(.providerLinked, userID: account.id, provider: EmailAuthProvider.id)
            let outcome = try await storeCall("linking a password", recording: event) {
                try await store.linkPassword(accountID: account.id, email: address, passwordHash: hash)
            }
            switch outcome {
            case .linked: break
            case .passwordAlreadyLinked:
                throw AuthError(.providerAlreadyLinked, "the user has a password already: unlink it before linking another")
            case .emailAlreadyInUse:
                throw AuthError(.emailAlreadyInUse, "another account has this email address", email: address)
            case .accountNotFound:
                throw accountGone()
            }
        case .emailLink(let email, let link):
            try await linkAddress(email, provenBy: link, to: account, at: now)
        case .idToken(let token, let nonce):
            try await link(try await verifiedIdentity(credential, token: token, nonce: nonce), to: account, credential: credential)
        case .phone(let verificationID, let code):
            let number = try await verifiedPhoneNumber(verificationID: verificationID, code: code)
            try await link(VerifiedProviderIdentity(phoneNumber: number), to: account, credential: credential)
        }
        logger.info("credential linked", metadata: ["user": "\(account.id)", "provider": "\(credential.provider)"])
        // An anonymous user becomes a user of the linked provider, which may enroll second factors.
        let provider = user.identity.provider == .anonymous ? FirstFactorProvider(rawValue: credential.provider) : user.identity.provider
        let identity = try await currentIdentity(of: account.id, provider: provider)
        let linked = try await startSession(
            identity, at: now, authenticatedAt: user.authenticatedAt, secondFactor: user.secondFactor,
            enrolledFactors: user.multiFactor.enrolledFactors, sessionClaims: user.sessionClaims)
        try await endReplacedSession(of: user)
        return AuthDataResult(user: linked, secondFactor: user.secondFactor)
    }

    /// Links a proven identity to `account` in one store operation, with the address the
    /// provider vouches for when the account may take it.
    private func link(_ verified: VerifiedProviderIdentity, to account: AccountRecord, credential: AuthCredential) async throws(AuthError) {
        let event = auditEvent(.providerLinked, userID: account.id, provider: verified.identity.providerID)
        let outcome = try await storeCall("linking an identity", recording: event) {
            try await store.linkProviderIdentity(verified.identity, accountID: account.id, email: emailUpdate(account, verified))
        }
        switch outcome {
        case .linked: break
        case .providerAlreadyLinked:
            throw AuthError(
                .providerAlreadyLinked, "the user has a \(credential.provider) identity already: unlink it before linking another")
        case .identityInUse:
            throw AuthError(
                .credentialAlreadyInUse,
                "this \(credential.provider) identity is linked to an account already: sign in with the credential (the error's updatedCredential) instead",
                updatedCredential: credential)
        case .emailAlreadyInUse:
            throw AuthError(.emailAlreadyInUse, "another account has the address this identity gives", email: verified.verifiedEmail)
        case .accountNotFound:
            throw accountGone()
        }
    }

    /// `accounts:update` with `deleteProvider`: removes one identity, or the password with its
    /// address, in one store operation.
    func unlink(_ user: User, fromProvider providerID: String) async throws(AuthError) -> User {
        try await requireCredentialChange(try await liveSession(user), for: "unlinking a provider")
        let account = try await linkableAccount(user)
        let event = auditEvent(.providerUnlinked, userID: account.id, provider: providerID)
        let removed = try await storeCall("unlinking a provider", recording: event) {
            try await store.unlinkProvider(providerID, accountID: account.id)
        }
        guard removed else {
            throw AuthError(.noSuchProvider, "the user has no \(providerID) identity to unlink: see the user's providerData")
        }
        logger.info("provider unlinked", metadata: ["user": "\(account.id)", "provider": "\(providerID)"])
        let identity = try await currentIdentity(of: account.id, provider: user.identity.provider)
        return User(
            service: self, identity: identity, sessionID: user.sessionID, authenticatedAt: user.authenticatedAt, secondFactor: user.secondFactor,
            enrolledFactors: user.multiFactor.enrolledFactors, sessionClaims: user.sessionClaims)
    }

    private func linkableAccount(_ user: User) async throws(AuthError) -> AccountRecord {
        let userID = user.uid
        guard let account = try await storeCall("reading the account", { try await store.account(id: userID) }) else {
            throw AuthError(
                .userNotFound,
                "this user has no account in the store: users signed in through signIn(_:) with an identity the host authenticated cannot link credentials"
            )
        }
        guard !account.isDisabled else { throw userDisabled() }
        return account
    }

    /// The address a linked identity gives to the account: to an account without one, or as the
    /// proof of the one it has. Only addresses the provider vouches for.
    private func emailUpdate(_ account: AccountRecord, _ verified: VerifiedProviderIdentity) -> AccountEmailUpdate? {
        guard let address = verified.verifiedEmail else { return nil }
        if account.email == nil || (account.email == address && !account.isEmailVerified) {
            return AccountEmailUpdate(address: address, isVerified: true)
        }
        return nil
    }

    func currentIdentity(of accountID: String, provider: FirstFactorProvider) async throws(AuthError) -> FirstFactorIdentity {
        guard let account = try await storeCall("reading the account", { try await store.account(id: accountID) }) else {
            throw accountGone()
        }
        let linked = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: accountID) }
        return firstFactorIdentity(account, provider: provider, linked: linked)
    }

    /// Ends the session a link replaced, so that its user object says where the user went.
    private func endReplacedSession(of user: User) async throws(AuthError) {
        let sessionID = user.sessionID
        try await storeCall("ending the replaced session") { try await store.removeSession(id: sessionID) }
        user.withState {
            $0.endedWith = AuthError(.userTokenExpired, "this session was replaced when a credential was linked: use the user link(with:) returned")
        }
    }

    private func accountGone() -> AuthError {
        AuthError(.userNotFound, "the user's account was deleted")
    }
}
