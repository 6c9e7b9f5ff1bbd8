import OTPCore

extension MultiFactorService {
    /// Signs in a user whose first factor the host application has just authenticated.
    ///
    /// - Returns: The signed-in user, when the user has no second factor.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/secondFactorRequired`` and a
    ///   ``AuthError/resolver`` when the user has second factors: pick one of the resolver's hints,
    ///   ask for its code, and call ``MultiFactorResolver/resolveSignIn(with:)-(MultiFactorAssertion)``.
    public func signIn(_ identity: FirstFactorIdentity) async throws(AuthError) -> User {
        let now = clock.now()
        let userID = identity.userID
        let factors = try await storeCall("starting a sign-in") { try await store.signInFactors(userID: userID) }
        if factors.isEmpty {
            return try await startSession(identity, at: now, secondFactor: nil, enrolledFactors: [])
        }
        // The records are at hand with their secrets: prepare the keys the second step will need,
        // and hand them to the resolver so that the second step finds them without a lookup.
        // TOTP hints come first (factorHandlers), so that the prepared keys line up with them.
        let hints = hints(among: factors)
        // The pending sign-in is not stored: its credential carries it (see PendingSignInRecord).
        let credential = PendingSignInRecord(
            id: try newID(),
            userID: userID,
            firstFactorProvider: identity.provider.rawValue,
            createdAt: now,
            expiresAt: now + configuration.pendingSignInLifetime
        )
        let resolver = MultiFactorResolver(
            service: self,
            identity: identity,
            credential: credential,
            pendingCredential: try pendingCredential(for: credential),
            hints: hints,
            verifiers: try verifiers(for: factors.totp)
        )
        throw AuthError(
            .secondFactorRequired, "the user has enrolled a second factor: complete the sign-in with the resolver's hints", resolver: resolver)
    }

    /// The user of a session that ``signIn(_:)`` or ``MultiFactorResolver/resolveSignIn(with:)-(MultiFactorAssertion)``
    /// started earlier, for a server that keeps ``User/sessionID`` between requests.
    ///
    /// `identity` is what the host knows of the user now (email and its verification may have
    /// changed); the first-factor provider is the one the session signed in with.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` when the session was revoked
    ///   or never existed, ``AuthErrorCode/invalidUserToken`` when it belongs to another user.
    public func user(forSessionID sessionID: String, identity: FirstFactorIdentity) async throws(AuthError) -> User {
        guard let record = try await liveSessionRecord(id: sessionID, now: clock.now()) else {
            throw AuthError(.userTokenExpired, "this session was revoked, signed out or never existed: sign in again")
        }
        guard record.userID == identity.userID else {
            throw AuthError(.invalidUserToken, "this session belongs to another user: sign in again")
        }
        let userID = identity.userID
        let factors = try await enrolledFactors(userID: userID)
        let secondFactor = record.secondFactorEnrollmentID.map { id in
            if id == Self.recoveryCodeFactor.uid { return Self.recoveryCodeFactor }
            return factors.first { $0.uid == id } ?? MultiFactorInfo(uid: id, displayName: nil, enrollmentTime: 0, factorID: TOTPMultiFactorID)
        }
        var sessionIdentity = identity
        sessionIdentity.provider = FirstFactorProvider(rawValue: record.firstFactorProvider)
        return User(
            service: self, identity: sessionIdentity, sessionID: record.id, authenticatedAt: record.authenticatedAt, secondFactor: secondFactor,
            enrolledFactors: factors, sessionClaims: record.sessionClaims)
    }

    func signOut(_ user: User) async throws(AuthError) {
        let sessionID = user.sessionID
        let event = auditEvent(.signedOut, userID: user.uid)
        try await storeCall("ending the session", recording: event) { try await store.removeSession(id: sessionID) }
        user.withState { $0.endedWith = AuthError(.userTokenExpired, "this session was signed out: sign in again") }
    }

    /// Stores a new session of `identity` and returns its user. `authenticatedAt` is when the user
    /// proved who they are: `now` for a sign-in, the replaced session's time when a session
    /// continues another, so that a change cannot make an old sign-in look recent; a continuing
    /// session keeps the replaced one's `sessionClaims` too.
    func startSession(
        _ identity: FirstFactorIdentity, at now: Int64, authenticatedAt: Int64? = nil, secondFactor: MultiFactorInfo?,
        enrolledFactors: [MultiFactorInfo], sessionClaims: String? = nil
    ) async throws(AuthError) -> User {
        let record = try newSession(identity, at: now, authenticatedAt: authenticatedAt, secondFactor: secondFactor, sessionClaims: sessionClaims)
        let limit = configuration.maximumSessionsPerUser
        // A session that continues another (after a new password, say) is no sign-in.
        let event = authenticatedAt == nil ? auditEvent(.signedIn, userID: identity.userID, provider: identity.provider.rawValue) : nil
        _ = try await storeCall("storing the session", recording: event) { try await store.insertSession(record, maximumPerUser: limit) }
        return signedInUser(identity, session: record, secondFactor: secondFactor, enrolledFactors: enrolledFactors)
    }

    func newSession(
        _ identity: FirstFactorIdentity, at now: Int64, authenticatedAt: Int64? = nil, secondFactor: MultiFactorInfo?, sessionClaims: String? = nil
    ) throws(AuthError) -> SessionRecord {
        let authenticatedAt = authenticatedAt ?? now
        return SessionRecord(
            id: try newID(),
            userID: identity.userID,
            firstFactorProvider: identity.provider.rawValue,
            authenticatedAt: authenticatedAt,
            secondFactorEnrollmentID: secondFactor?.uid,
            lastUsedAt: now,
            expiresAt: sessionExpiry(authenticatedAt: authenticatedAt, lastUsedAt: now),
            sessionClaims: sessionClaims
        )
    }

    func signedInUser(
        _ identity: FirstFactorIdentity, session: SessionRecord, secondFactor: MultiFactorInfo?, enrolledFactors: [MultiFactorInfo]
    ) -> User {
        User(
            service: self, identity: identity, sessionID: session.id, authenticatedAt: session.authenticatedAt, secondFactor: secondFactor,
            enrolledFactors: enrolledFactors, sessionClaims: session.sessionClaims)
    }

    /// The error for a code that did not verify: the credential's state first (gone, expired or
    /// locked, counting nothing), otherwise the failure counted against `failureKey`, in one store call.
    func signInFailure(
        _ credential: PendingSignInRecord, failureKey: String, kind: String, now: Int64, reason: String
    ) async -> AuthError {
        let outcome: SignInFailure
        do {
            let event = auditEvent(.signInFailed, userID: credential.userID, factorID: failureKey, reason: "wrong code")
            outcome = try await storeCall("counting a failure", recording: event) {
                try await store.recordSignInFailure(
                    credential: credential, failureKey: failureKey, at: now,
                    limit: configuration.maximumConsecutiveFailures, lockout: configuration.lockoutDuration)
            }
        } catch {
            return error
        }
        switch outcome {
        case .credentialNotFound: return credentialNotFound()
        case .credentialExpired(let expiresAt): return credentialExpired(expiresAt, now: now)
        case .locked(let until): return tooManyRequests(until: until, now: now)
        case .counted(let counter): return failure(counted: counter, kind: kind, now: now, reason: reason)
        }
    }

    /// The error for a completion refused by the checks every kind starts with: the pending
    /// credential (gone or expired) and the lock.
    func refusal(_ completion: SignInCompletion, now: Int64) -> AuthError {
        switch completion {
        case .credentialNotFound: credentialNotFound()
        case .credentialExpired(let expiresAt): credentialExpired(expiresAt, now: now)
        case .locked(let until): tooManyRequests(until: until, now: now)
        default: AuthError(.internalError, "the store answered a sign-in completion with \(completion), which is no refusal")
        }
    }

    /// Checks, before a second step's start (a code sent, a passkey's options), that the pending
    /// sign-in `credential` can still complete with `factor`: unexpired, unspent, the factor not
    /// locked. Returns the time it checked at.
    func requireOpenSignIn(_ credential: PendingSignInRecord, factor enrollmentID: String) async throws(AuthError) -> Int64 {
        let now = clock.now()
        guard now <= credential.expiresAt else { throw credentialExpired(credential.expiresAt, now: now) }
        let found = try await storeCall("reading the pending sign-in") { try await store.pendingSignInFailures(credential, failureKey: enrollmentID) }
        guard let failures = found else { throw credentialNotFound() }
        if let until = failures.lockEnd(at: now) { throw tooManyRequests(until: until, now: now) }
        return now
    }

    func credentialNotFound() -> AuthError {
        AuthError(.invalidMultiFactorSession, "this sign-in was already completed or is unknown: sign in with the first factor again")
    }

    func credentialExpired(_ expiresAt: Int64, now: Int64) -> AuthError {
        AuthError(.sessionExpired, "the sign-in expired \(now - expiresAt) seconds ago: sign in with the first factor again")
    }

}
