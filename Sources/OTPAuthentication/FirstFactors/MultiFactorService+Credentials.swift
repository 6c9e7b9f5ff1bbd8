extension MultiFactorService {
    /// Signs in with a first-factor credential (Firebase's `Auth.signIn(with:)`).
    ///
    /// An email-and-password credential signs in as ``signIn(withEmail:password:source:)`` does. A
    /// federated provider's ID token is checked by that provider's ``IdentityTokenVerifier``; the
    /// account linked to its identity signs in, and an identity no account has gets a new account
    /// (``AuthDataResult/isNewUser``) that takes the token's address when the provider vouches
    /// for it, and its name and picture.
    ///
    /// An identity is linked to an existing account here only when that account's address is the
    /// one the provider vouches for, unverified, with a password as its only way in: someone
    /// created it without owning the address, so, as Firebase does, the password goes, its
    /// sessions end and the owner signs in to the account. When a verified address the token
    /// gives belongs to any other account, the sign-in is refused with
    /// ``AuthErrorCode/accountExistsWithDifferentCredential`` (carrying the address and the
    /// credential), and the app signs in to that account its own way and calls ``User/link(with:)-(AuthCredential)``.
    ///
    /// - Parameters:
    ///   - credential: A password, a sign-in link or an ID token, from ``EmailAuthProvider``,
    ///     ``GoogleAuthProvider`` or ``OAuthProvider``.
    ///   - source: Where the request came from (the client's IP address), for the per-source limit
    ///     of password sign-ins.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/secondFactorRequired`` and a resolver when the
    ///   account has second factors; ``AuthErrorCode/invalidCredential`` for a token the verifier
    ///   refuses; ``AuthErrorCode/invalidProviderID`` for a provider the service has no verifier
    ///   for; ``AuthErrorCode/userDisabled``; and the errors of
    ///   ``signIn(withEmail:password:source:)`` for a password.
    public func signIn(with credential: AuthCredential, source: String? = nil) async throws(AuthError) -> AuthDataResult {
        switch credential.secret {
        case .password(let email, let password):
            return AuthDataResult(user: try await signIn(withEmail: email, password: password, source: source), secondFactor: nil)
        case .emailLink(let email, let link):
            return try await signIn(withEmail: email, link: link)
        case .idToken(let token, let nonce):
            let identity = try await verifiedIdentity(credential, token: token, nonce: nonce)
            return try await signIn(identity, credential: credential)
        case .phone(let verificationID, let code):
            let number = try await verifiedPhoneNumber(verificationID: verificationID, code: code)
            return try await signIn(VerifiedProviderIdentity(phoneNumber: number), credential: credential)
        }
    }

    /// Signs in with the code of a text message sent by ``PhoneAuthProvider/verifyPhoneNumber(_:)``
    /// (Firebase's `signIn(with:)` with a `PhoneAuthCredential`): the account the number is linked
    /// to, or a new account with the number.
    ///
    /// - Throws: ``AuthError`` as ``signIn(with:source:)`` does, and
    ///   ``AuthErrorCode/invalidVerificationCode``, ``AuthErrorCode/invalidVerificationID`` or
    ///   ``AuthErrorCode/sessionExpired`` for a code that does not prove the number.
    public func signIn(with credential: PhoneAuthCredential) async throws(AuthError) -> AuthDataResult {
        try await signIn(with: AuthCredential(credential))
    }

    /// A federated identity's sign-in. A few rounds, because a concurrent first sign-in of the same
    /// identity may create its account between this one's read and its insert; the store decides,
    /// and the next round finds the account it made.
    private func signIn(_ verified: VerifiedProviderIdentity, credential: AuthCredential) async throws(AuthError) -> AuthDataResult {
        let identity = verified.identity
        for _ in 0..<3 {
            let owner = try await storeCall("finding the identity's account") {
                try await store.accountID(providerID: identity.providerID, providerUID: identity.providerUID)
            }
            if let owner {
                guard let account = try await storeCall("reading an account", { try await store.account(id: owner) }) else { continue }
                return try await signInLinkedAccount(account, provider: identity.providerID, isNewUser: false)
            }
            if let address = verified.verifiedEmail,
                let holder = try await storeCall("reading an account", { try await store.account(email: address) })
            {
                // A concurrent first sign-in of this identity may have made its account, with the
                // address, between the two reads: then the next round signs in to it.
                let madeMeanwhile = try await storeCall("finding the identity's account") {
                    try await store.accountID(providerID: identity.providerID, providerUID: identity.providerUID)
                }
                if madeMeanwhile != nil { continue }
                if try await reclaim(holder, for: verified) { continue }
                throw AuthError(
                    .accountExistsWithDifferentCredential,
                    "an account has the address this \(identity.providerID) identity gives: sign in to that account another way, then link this credential to it",
                    updatedCredential: credential, email: address)
            }
            let now = clock.now()
            let account = AccountRecord(
                id: try newID(), email: verified.verifiedEmail, isEmailVerified: verified.verifiedEmail != nil,
                displayName: verified.identity.displayName, photoURL: verified.photoURL, createdAt: now, lastSignInAt: now)
            let event = auditEvent(.accountCreated, userID: account.id, provider: identity.providerID)
            switch try await storeCall("creating an account", recording: event, { try await store.insertAccount(account, identity: identity) }) {
            case .inserted:
                logger.info("account created", metadata: ["user": "\(account.id)", "provider": "\(identity.providerID)"])
                return try await signInLinkedAccount(account, provider: identity.providerID, isNewUser: true)
            case .identityInUse, .emailAlreadyInUse, .idAlreadyInUse:
                continue
            }
        }
        throw AuthError(.internalError, "the account of this identity changed during the sign-in several times: try again")
    }

    /// Gives the owner of an address back the account someone made with it and a password, without
    /// ever proving it (Firebase's rule): when the provider vouches for the address and the
    /// account's address is unverified, with a password as its only way in and no second factor,
    /// the password goes, every session ends, and the identity is linked with the address now
    /// verified. Otherwise the account may be its owner's own: `false`, nothing changed.
    ///
    /// The password goes first: should the link then fail, the next sign-in of the identity finds
    /// the account in the same state and finishes.
    private func reclaim(_ account: AccountRecord, for verified: VerifiedProviderIdentity) async throws(AuthError) -> Bool {
        guard let address = verified.verifiedEmail, account.email == address, !account.isDisabled, try await hasUnprovenPassword(account) else {
            return false
        }
        let accountID = account.id
        let now = clock.now()
        let changes = AccountChanges(tokensValidAfter: now, removesPasswordHash: true)
        let events = auditEvents(for: changes, userID: accountID, actor: .system)
        guard
            case .updated = try await storeCall(
                "removing an unproven password", recording: events, { try await store.updateAccount(id: accountID, changes: changes) })
        else { return false }
        _ = try await storeCall("ending the unproven password's sessions") { try await store.removeSessions(userID: accountID, except: nil) }
        let event = auditEvent(.providerLinked, userID: accountID, provider: verified.identity.providerID)
        let outcome = try await storeCall("linking the owner's identity", recording: event) {
            try await store.linkProviderIdentity(
                verified.identity, accountID: accountID, email: AccountEmailUpdate(address: address, isVerified: true))
        }
        logger.notice(
            "unverified password replaced by the address's owner", metadata: ["user": "\(accountID)", "provider": "\(verified.identity.providerID)"])
        switch outcome {
        case .linked, .identityInUse: return true
        case .providerAlreadyLinked, .emailAlreadyInUse, .accountNotFound: return false
        }
    }

    /// Whether `account` may be someone's claim on an address that is not theirs: the address never
    /// proven, no identity linked, no second factor (Firebase's rule). The owner proving the
    /// address then takes the account back.
    func hasUnprovenPassword(_ account: AccountRecord) async throws(AuthError) -> Bool {
        guard !account.isEmailVerified else { return false }
        let accountID = account.id
        let identities = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: accountID) }
        guard identities.isEmpty else { return false }
        return try await enrolledFactors(userID: accountID).isEmpty
    }

    /// Signs in an account a first factor has just proven, second factor permitting.
    private func signInLinkedAccount(_ account: AccountRecord, provider: String, isNewUser: Bool) async throws(AuthError) -> AuthDataResult {
        guard !account.isDisabled else { throw userDisabled() }
        let now = clock.now()
        if !isNewUser {
            try await storeCall("recording a sign-in") { try await store.recordAccountSignIn(id: account.id, at: now, rehash: nil) }
        }
        let linked = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: account.id) }
        var result = AuthDataResult(
            user: try await signIn(firstFactorIdentity(account, provider: FirstFactorProvider(rawValue: provider), linked: linked)),
            secondFactor: nil)
        result.isNewUser = isNewUser
        return result
    }

    /// Checks an ID token with its provider's verifier, and what the account keeps of it.
    func verifiedIdentity(_ credential: AuthCredential, token: String, nonce: String?) async throws(AuthError) -> VerifiedProviderIdentity {
        guard let verifier = identityProviders[credential.provider] else {
            throw AuthError(
                .invalidProviderID,
                "this server accepts no credentials of provider \(credential.provider): configure an identity token verifier for it")
        }
        let claims: VerifiedIdentity
        do {
            claims = try await verifier.verify(idToken: token, nonce: nonce)
        } catch {
            switch error {
            case .rejected:
                logger.notice("ID token refused", metadata: ["provider": "\(credential.provider)", "reason": "\(error)"])
                throw AuthError(.invalidCredential, "the \(credential.provider) credential is invalid: \(error)")
            case .keysUnavailable:
                logger.error("identity provider keys unavailable", metadata: ["provider": "\(credential.provider)", "reason": "\(error)"])
                throw AuthError(
                    .internalError, "the server could not check the \(credential.provider) credential: try again later", underlyingError: error)
            }
        }
        return VerifiedProviderIdentity(provider: credential.provider, token: claims)
    }
}

/// A provider identity a credential has just proven: a verified ID token's, or a phone number's.
struct VerifiedProviderIdentity {
    let identity: ProviderIdentity
    /// The token's address, normalized, when the provider vouches for it: the only address an
    /// account takes from a provider, so an identity cannot claim an address it does not own.
    let verifiedEmail: String?
    let photoURL: String?

    init(provider: String, token: VerifiedIdentity) {
        let address = token.email.flatMap(EmailAddress.normalized)
        self.identity = ProviderIdentity(
            providerID: provider, providerUID: token.subject, email: address ?? token.email, displayName: token.displayName)
        self.verifiedEmail = token.isEmailVerified ? address : nil
        self.photoURL = token.photoURL
    }

    /// Firebase's phone identity: the number in E.164 is both its uid and its phone number.
    init(phoneNumber: String) {
        self.identity = ProviderIdentity(providerID: PhoneAuthProvider.id, providerUID: phoneNumber, phoneNumber: phoneNumber)
        self.verifiedEmail = nil
        self.photoURL = nil
    }
}
