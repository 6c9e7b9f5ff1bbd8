extension MultiFactorService {
    /// The resolver of a sign-in whose first step ended in ``AuthErrorCode/secondFactorRequired``,
    /// found again from its pending credential: for a server that hands
    /// ``MultiFactorResolver/pendingCredential`` to a client (Firebase's `mfaPendingCredential`)
    /// and gets it back in a later request, perhaps at another server of the same store.
    ///
    /// The credential must name a sign-in of `userID` that is neither completed nor expired, and the
    /// user must have an account in the store (the service's own first factors; a host that
    /// authenticates users itself keeps its resolver instead). The hints are the user's factors
    /// now, phone numbers masked.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidMultiFactorSession`` for a credential
    ///   that is unknown, used, of another user or expired (an expired one is discarded),
    ///   ``AuthErrorCode/userDisabled`` when the account was disabled since, or
    ///   ``AuthErrorCode/internalError`` when the store fails.
    public func resolver(forPendingCredential credentialID: String, userID: String) async throws(AuthError) -> MultiFactorResolver {
        let now = clock.now()
        // One store call for everything: a durable store answers it in one trip, and the second
        // step of a server's sign-in comes here on every request.
        guard let context = try await storeCall("reading the pending sign-in", { try await store.pendingSignInContext(id: credentialID) }),
            context.credential.userID == userID
        else { throw credentialNotFound() }
        let credential = context.credential
        guard now <= credential.expiresAt else {
            _ = try await storeCall("discarding an expired sign-in") { try await store.consumePendingSignIn(id: credentialID) }
            // Not sessionExpired: clients read that as an expired SMS code, and this is the sign-in.
            throw AuthError(
                .invalidMultiFactorSession, "the sign-in expired \(now - credential.expiresAt) seconds ago: sign in with the first factor again")
        }
        guard let account = context.account else { throw credentialNotFound() }
        guard !account.isDisabled else { throw userDisabled() }
        let identity = firstFactorIdentity(
            account, provider: FirstFactorProvider(rawValue: credential.firstFactorProvider), linked: context.identities)
        let totp = context.factors.totp
        let phone = context.factors.phone
        // TOTP hints first, lined up with their prepared keys, as signIn(_:) orders them.
        return MultiFactorResolver(
            service: self, identity: identity, credentialID: credentialID,
            hints: totp.map(MultiFactorInfo.init) + phone.map { MultiFactorInfo($0, masked: true) }, verifiers: try verifiers(for: totp))
    }

    /// The second factors of account `id`, as its owner sees them (phone numbers whole): TOTP
    /// factors, then phone factors, each oldest first (Firebase's `mfaInfo` of a lookup).
    public func enrolledFactors(accountID id: String) async throws(AuthError) -> [MultiFactorInfo] {
        try await enrolledFactors(userID: id)
    }
}
