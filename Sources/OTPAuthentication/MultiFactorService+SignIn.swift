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
        // TOTP hints come first, so that the prepared keys line up with them.
        var hints = factors.totp.map(MultiFactorInfo.init)
        if !factors.phone.isEmpty {
            hints += factors.phone.map { MultiFactorInfo($0, masked: true) }
        }
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
            enrolledFactors: factors)
    }

    func signOut(_ user: User) async throws(AuthError) {
        let sessionID = user.sessionID
        try await storeCall("ending the session") { try await store.removeSession(id: sessionID) }
        user.withState { $0.endedWith = AuthError(.userTokenExpired, "this session was signed out: sign in again") }
    }

    /// Stores a new session of `identity` and returns its user. `authenticatedAt` is when the user
    /// proved who they are: `now` for a sign-in, the replaced session's time when a session
    /// continues another, so that a change cannot make an old sign-in look recent.
    func startSession(
        _ identity: FirstFactorIdentity, at now: Int64, authenticatedAt: Int64? = nil, secondFactor: MultiFactorInfo?,
        enrolledFactors: [MultiFactorInfo]
    ) async throws(AuthError) -> User {
        let record = try newSession(identity, at: now, authenticatedAt: authenticatedAt, secondFactor: secondFactor)
        let limit = configuration.maximumSessionsPerUser
        _ = try await storeCall("storing the session") { try await store.insertSession(record, maximumPerUser: limit) }
        return signedInUser(identity, session: record, secondFactor: secondFactor, enrolledFactors: enrolledFactors)
    }

    func newSession(_ identity: FirstFactorIdentity, at now: Int64, authenticatedAt: Int64? = nil, secondFactor: MultiFactorInfo?)
        throws(AuthError) -> SessionRecord
    {
        let authenticatedAt = authenticatedAt ?? now
        return SessionRecord(
            id: try newID(),
            userID: identity.userID,
            firstFactorProvider: identity.provider.rawValue,
            authenticatedAt: authenticatedAt,
            secondFactorEnrollmentID: secondFactor?.uid,
            lastUsedAt: now,
            expiresAt: sessionExpiry(authenticatedAt: authenticatedAt, lastUsedAt: now)
        )
    }

    func signedInUser(
        _ identity: FirstFactorIdentity, session: SessionRecord, secondFactor: MultiFactorInfo?, enrolledFactors: [MultiFactorInfo]
    ) -> User {
        User(
            service: self, identity: identity, sessionID: session.id, authenticatedAt: session.authenticatedAt, secondFactor: secondFactor,
            enrolledFactors: enrolledFactors)
    }

    /// `mfaSignIn:finalize`: the hot path of a server. Verifies on the prepared key the resolver
    /// carries, then lets one store call check the credential and the lock, record the step with a
    /// compare-and-set, spend the credential and store the session. A wrong code costs one more
    /// store call, which checks the credential and the lock and counts the failure.
    func finalizeSignIn(_ resolver: MultiFactorResolver, enrollmentID: String, code: String) async throws(AuthError) -> AuthDataResult {
        guard !code.isEmpty else {
            throw AuthError(.missingVerificationCode, "no verification code given: enter the code the authenticator app shows")
        }
        let now = clock.now()
        let hintIndex = resolver.hints.prefix(resolver.verifiers.count).firstIndex { $0.uid == enrollmentID }
        if hintIndex == nil, resolver.hints.contains(where: { $0.uid == enrollmentID }) {
            throw AuthError(
                .multiFactorInfoNotFound,
                "the factor \(enrollmentID) is a phone factor: send it a code with PhoneAuthProvider.verifyPhoneNumber(with:multiFactorSession:) and sign in with PhoneMultiFactorGenerator"
            )
        }
        let verifier =
            if let hintIndex {
                resolver.verifiers[hintIndex]
            } else {
                try await verifier(ofOtherFactor: enrollmentID, resolver: resolver)
            }
        let hint =
            hintIndex.map { resolver.hints[$0] }
            ?? MultiFactorInfo(uid: enrollmentID, displayName: nil, enrollmentTime: 0, factorID: TOTPMultiFactorID)
        let session = try newSession(resolver.identity, at: now, secondFactor: hint)
        let credential = resolver.credential
        let sessionLimit = configuration.maximumSessionsPerUser

        var after = verifier.lastAcceptedStep
        while true {
            let match: TOTPMatch?
            do {
                match = try verifier.totp.verify(code, at: now, window: window, after: after)
            } catch {
                throw await signInFailure(
                    credential, failureKey: enrollmentID, kind: "factor", now: now, reason: "invalid verification code: \(error)")
            }
            guard let match else {
                throw await signInFailure(
                    credential, failureKey: enrollmentID, kind: "factor", now: now,
                    reason: "wrong or already used verification code: enter the code the authenticator app shows now")
            }
            // The store decides: another request (or process) may have accepted this step meanwhile.
            let completion = try await storeCall("completing the sign-in") {
                try await store.completeSignIn(
                    credential: credential, factorID: enrollmentID, step: match.step, at: now, session: session,
                    maximumSessionsPerUser: sessionLimit
                )
            }
            switch completion {
            case .completed:
                verifier.noteAccepted(match.step)
            case .stepRejected(let last):
                verifier.noteAccepted(last)
                after = last
                continue
            case .credentialNotFound, .credentialExpired, .locked:
                throw refusal(completion, now: now)
            case .factorNotFound:
                forgetVerifier(enrollmentID)
                throw factorNotFound()
            case .codeRejected, .verificationNotFound, .verificationExpired:
                // Only recovery-code and phone completions answer these; a store that does here refused the code.
                throw await failure(
                    key: enrollmentID, kind: "factor", now: now,
                    reason: "wrong or already used verification code: enter the code the authenticator app shows now")
            }
            break
        }

        let user = signedInUser(resolver.identity, session: session, secondFactor: hint, enrolledFactors: resolver.hints)
        if logger.logLevel <= .debug {
            logger.debug("signed in with TOTP", metadata: ["user": "\(resolver.identity.userID)", "enrollment": "\(enrollmentID)"])
        }
        return AuthDataResult(user: user, secondFactor: hint)
    }

    /// The prepared key of a factor of the resolver's user that is not among its hints (enrolled
    /// since the first step): cached, or read from the store.
    private func verifier(ofOtherFactor enrollmentID: String, resolver: MultiFactorResolver) async throws(AuthError) -> Verifier {
        let verifier: Verifier
        if let cached = cachedVerifier(enrollmentID) {
            verifier = cached
        } else if let record = try await storeCall("reading the factor", { try await store.factor(id: enrollmentID) }) {
            verifier = try cacheVerifier(record)
        } else {
            throw factorNotFound()
        }
        guard verifier.userID == resolver.identity.userID else { throw factorNotFound() }
        return verifier
    }

    /// The error for a code that did not verify: the credential's state first (gone, expired or
    /// locked, counting nothing), otherwise the failure counted against `failureKey`, in one store call.
    func signInFailure(
        _ credential: PendingSignInRecord, failureKey: String, kind: String, now: Int64, reason: String
    ) async -> AuthError {
        let outcome: SignInFailure
        do {
            outcome = try await storeCall("counting a failure") {
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

    func credentialNotFound() -> AuthError {
        AuthError(.invalidMultiFactorSession, "this sign-in was already completed or is unknown: sign in with the first factor again")
    }

    func credentialExpired(_ expiresAt: Int64, now: Int64) -> AuthError {
        AuthError(.sessionExpired, "the sign-in expired \(now - expiresAt) seconds ago: sign in with the first factor again")
    }

    private func factorNotFound() -> AuthError {
        AuthError(.multiFactorInfoNotFound, "the user has no second factor with this enrollment id: pick one of the resolver's hints")
    }
}
