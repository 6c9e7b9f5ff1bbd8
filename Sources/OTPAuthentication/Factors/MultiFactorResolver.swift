/// What completes a sign-in that failed with ``AuthErrorCode/secondFactorRequired``: the user's
/// factors as hints, and ``resolveSignIn(with:)-(MultiFactorAssertion)``.
public final class MultiFactorResolver: Sendable {
    /// The user's enrolled factors, to let the user choose one.
    public let hints: [MultiFactorInfo]
    /// The sign-in session (it cannot start an enrollment).
    public let session: MultiFactorSession
    let service: MultiFactorService
    let identity: FirstFactorIdentity
    let credential: PendingSignInRecord
    /// The prepared keys of the TOTP factors, which lead ``hints`` in the same order.
    let verifiers: [MultiFactorService.Verifier]

    /// The pending sign-in as an opaque credential (Firebase's `mfaPendingCredential`), for a
    /// server that hands it to a client between requests and finds the resolver again with
    /// ``MultiFactorService/resolver(forPendingCredential:)``. It carries the pending sign-in under a
    /// MAC of the store's keys, so nothing is stored until it completes; it is a bearer secret
    /// until then or until it expires.
    public let pendingCredential: String
    /// The id of the user signing in.
    public var uid: String { identity.userID }

    init(
        service: MultiFactorService, identity: FirstFactorIdentity, credential: PendingSignInRecord, pendingCredential: String,
        hints: [MultiFactorInfo], verifiers: [MultiFactorService.Verifier]
    ) {
        self.service = service
        self.identity = identity
        self.credential = credential
        self.pendingCredential = pendingCredential
        self.hints = hints
        self.verifiers = verifiers
        self.session = MultiFactorSession(kind: .signIn(credential: credential, service: service))
    }

    /// Completes the sign-in with a second factor's assertion.
    ///
    /// - Returns: The signed-in user; ``AuthDataResult/secondFactor`` and
    ///   ``User/secondFactorIdentifier`` say which factor completed the sign-in.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidVerificationCode`` (wrong, malformed,
    ///   outside the window, or already used), ``AuthErrorCode/tooManyRequests`` (locked after too
    ///   many failures), ``AuthErrorCode/sessionExpired`` (the pending credential expired),
    ///   ``AuthErrorCode/invalidMultiFactorSession`` (the credential was used already),
    ///   ``AuthErrorCode/multiFactorInfoNotFound``, ``AuthErrorCode/missingVerificationCode`` or
    ///   ``AuthErrorCode/missingMultiFactorInfo`` (an enrollment assertion).
    public func resolveSignIn(with assertion: any MultiFactorAssertion) async throws(AuthError) -> AuthDataResult {
        guard let assertion = assertion as? any VerifiableAssertion else {
            throw AuthError(
                .missingMultiFactorInfo,
                "unsupported assertion for factor \"\(assertion.factorID)\": make it with this module's generators, such as TOTPMultiFactorGenerator")
        }
        return try await assertion.resolveSignIn(self)
    }

    /// Completes the sign-in with a TOTP assertion: the same as the overload that takes any
    /// ``MultiFactorAssertion``.
    // The concrete overload spares the hot path an existential box and a dynamic cast.
    public func resolveSignIn(with totp: TOTPMultiFactorAssertion) async throws(AuthError) -> AuthDataResult {
        try await totp.resolveSignIn(self)
    }
}

/// The result of a completed sign-in.
public struct AuthDataResult: Sendable {
    /// The signed-in user.
    public let user: User
    /// The second factor that completed the sign-in, when one did.
    public let secondFactor: MultiFactorInfo?
    /// Whether the sign-in created the account (Firebase's `additionalUserInfo.isNewUser`).
    public internal(set) var isNewUser = false
}
