extension MultiFactorService {
    /// Signs in the account `uid` on the word of a backend the host trusts: Firebase's
    /// `signInWithCustomToken`, once the host has verified the token (OTPServer's
    /// `CustomTokenVerifier` does, for the REST API). An account that does not exist yet is
    /// created, with nothing but its id, as Firebase creates it.
    ///
    /// No second factor is asked for, as Firebase asks none for a custom token: the backend that
    /// minted it vouches for the user, and answers for whatever second step it wants. The session's
    /// first factor is ``FirstFactorProvider/customToken``, with which a user cannot enroll one.
    ///
    /// `sessionClaims` are the token's developer claims (firebase-admin's
    /// `create_custom_token(uid, claims)`), one JSON object serialized: the session keeps them, and
    /// every ID token it is refreshed to carries them over the account's own custom claims, as
    /// Firebase's do. They are held to the rules of the account's claims (at most 1,000 bytes, no
    /// name an ID token uses itself).
    ///
    /// - Returns: The signed-in user; ``AuthDataResult/isNewUser`` when the account was created.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidCustomToken`` for a `uid` that is empty or
    ///   longer than ``AccountAdministration/maximumAccountIDLength`` characters, or claims that
    ///   break those rules; ``AuthErrorCode/userDisabled`` for a disabled account, or
    ///   ``AuthErrorCode/internalError`` when the store fails.
    public func signIn(customTokenUID uid: String, sessionClaims: String? = nil) async throws(AuthError) -> AuthDataResult {
        guard !uid.isEmpty, uid.count <= AccountAdministration.maximumAccountIDLength else {
            throw AuthError(
                .invalidCustomToken,
                "the custom token's uid must have 1 to \(AccountAdministration.maximumAccountIDLength) characters: mint it with the user's id")
        }
        var claims: String?
        if let sessionClaims {
            do throws(AdminRequestError) {
                if case .set(let kept) = try CustomClaims.change(sessionClaims) { claims = kept }
            } catch {
                throw AuthError(.invalidCustomToken, "the custom token's claims: \(error.message)")
            }
        }
        let now = clock.now()
        // A few rounds: a concurrent first sign-in of the same uid may create the account between
        // this one's read and its insert; the store decides, and the next round finds it.
        for _ in 0..<3 {
            if let account = try await storeCall("reading an account", { try await store.account(id: uid) }) {
                guard !account.isDisabled else { throw userDisabled() }
                try await storeCall("recording a sign-in") { try await store.recordAccountSignIn(id: uid, at: now, rehash: nil) }
                return try await customTokenSession(account, isNewUser: false, claims: claims, at: now)
            }
            let account = AccountRecord(id: uid, email: nil, createdAt: now, lastSignInAt: now)
            let event = auditEvent(.accountCreated, userID: uid, provider: FirstFactorProvider.customToken.rawValue)
            switch try await storeCall("creating an account", recording: event, { try await store.insertAccount(account) }) {
            case .inserted:
                logger.info("account created", metadata: ["user": "\(uid)", "provider": "\(FirstFactorProvider.customToken)"])
                return try await customTokenSession(account, isNewUser: true, claims: claims, at: now)
            case .idAlreadyInUse:
                continue
            case .emailAlreadyInUse, .identityInUse:
                throw AuthError(.internalError, "the store refused an account with neither address nor identity")
            }
        }
        throw AuthError(.internalError, "the account \(uid) was created and deleted again while signing in: try again")
    }

    private func customTokenSession(
        _ account: AccountRecord, isNewUser: Bool, claims: String?, at now: Int64
    ) async throws(AuthError) -> AuthDataResult {
        let userID = account.id
        let linked = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: userID) }
        let factors = try await enrolledFactors(userID: userID)
        let identity = firstFactorIdentity(account, provider: .customToken, linked: linked)
        let user = try await startSession(identity, at: now, secondFactor: nil, enrolledFactors: factors, sessionClaims: claims)
        var result = AuthDataResult(user: user, secondFactor: nil)
        result.isNewUser = isNewUser
        return result
    }
}
