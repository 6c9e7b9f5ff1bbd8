internal import OTPSealing

extension MultiFactorService {
    /// The resolver of a sign-in whose first step ended in ``AuthErrorCode/secondFactorRequired``,
    /// found again from its pending credential: for a server that hands
    /// ``MultiFactorResolver/pendingCredential`` to a client (Firebase's `mfaPendingCredential`)
    /// and gets it back in a later request, perhaps at another server of the same store.
    ///
    /// The credential must be one a service of the same store made, of a sign-in neither completed
    /// nor expired, and its user must have an account in the store (the service's own first
    /// factors; a host that authenticates users itself keeps its resolver instead). The hints are
    /// the user's factors now, phone numbers masked.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidMultiFactorSession`` for a credential
    ///   that is not one of ours, used, expired, of a deleted account or of one whose tokens were
    ///   revoked after it was made (``AccountRecord/tokensValidAfter``),
    ///   ``AuthErrorCode/userDisabled`` when the account was disabled since, or
    ///   ``AuthErrorCode/internalError`` when the store fails.
    public func resolver(forPendingCredential pendingCredential: String) async throws(AuthError) -> MultiFactorResolver {
        guard let authenticated = authenticate(pendingCredential: pendingCredential) else {
            throw AuthError(.invalidMultiFactorSession, "this is not a pending credential of this service: sign in with the first factor again")
        }
        return try await resolver(for: authenticated)
    }

    /// ``resolver(forPendingCredential:)`` for a credential ``authenticate(pendingCredential:)``
    /// checked already. A sign-in of an account disabled since, or whose tokens were revoked after
    /// the sign-in began, is refused.
    public func resolver(for authenticated: AuthenticatedPendingCredential) async throws(AuthError) -> MultiFactorResolver {
        let now = clock.now()
        let credential = authenticated.record
        guard now <= credential.expiresAt else {
            // Not sessionExpired: clients read that as an expired SMS code, and this is the sign-in.
            throw AuthError(
                .invalidMultiFactorSession, "the sign-in expired \(now - credential.expiresAt) seconds ago: sign in with the first factor again")
        }
        // One store call for everything: a durable store answers it in one trip, and the second
        // step of a server's sign-in comes here on every request.
        guard let context = try await storeCall("reading the pending sign-in", { try await store.pendingSignInContext(credential) }),
            let account = context.account
        else { throw credentialNotFound() }
        guard !account.isDisabled else { throw userDisabled() }
        // A revocation (a new password, an administrator's revoke) after the first factor passed
        // ends the sign-in too, as it ends the sessions: the credential is as good as a token.
        if let validAfter = account.tokensValidAfter, credential.createdAt < validAfter {
            throw AuthError(
                .invalidMultiFactorSession,
                "the account's sign-ins were revoked after this one began (a new password or an administrator's revocation): sign in with the first factor again"
            )
        }
        let identity = firstFactorIdentity(
            account, provider: FirstFactorProvider(rawValue: credential.firstFactorProvider), linked: context.identities)
        return MultiFactorResolver(
            service: self, identity: identity, credential: credential, pendingCredential: authenticated.credential,
            hints: hints(among: context.factors), verifiers: try verifiers(for: context.factors.totp))
    }

    /// The sign-in a pending credential carries, when a service of the same store made it (its
    /// MAC checked in constant time), whether or not it completed or expired since: for a server
    /// that throttles per account before it takes the sign-in up again (``resolver(for:)``).
    public func authenticate(pendingCredential: String) -> AuthenticatedPendingCredential? {
        pendingSignIn(forCredential: pendingCredential).map { AuthenticatedPendingCredential(record: $0, credential: pendingCredential) }
    }

    // MARK: Pending credentials

    /// `otpkp2.<id>.<uid>.<first factor>.<created>.<expires>.<MAC>`; the MAC context differs from
    /// every other use of the keys, the server's refresh tokens included.
    static func pendingCredentials(_ keys: SecretSealer) -> SignedTokenCodec {
        SignedTokenCodec(keys: keys, prefix: "otpkp2", context: "otpkit pending sign-in:")
    }

    /// The opaque credential that carries `record`.
    func pendingCredential(for record: PendingSignInRecord) throws(AuthError) -> String {
        let claims = [record.firstFactorProvider, String(record.createdAt), String(record.expiresAt)]
        do {
            return try pendingCredentials.token(recordID: record.id, userID: record.userID, claims: claims)
        } catch {
            throw AuthError(.internalError, "could not make the pending credential: \(error)")
        }
    }

    /// The pending sign-in `pendingCredential` carries, when its MAC is ours.
    func pendingSignIn(forCredential pendingCredential: String) -> PendingSignInRecord? {
        guard let (id, userID, claims) = pendingCredentials.open(pendingCredential, claimCount: 3),
            let createdAt = Int64(claims[1]), let expiresAt = Int64(claims[2])
        else { return nil }
        return PendingSignInRecord(id: id, userID: userID, firstFactorProvider: claims[0], createdAt: createdAt, expiresAt: expiresAt)
    }
}
