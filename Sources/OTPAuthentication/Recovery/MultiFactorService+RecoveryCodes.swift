internal import OTPSealing

extension MultiFactorService {
    /// The second factor a recovery code stands for in sessions and results.
    static let recoveryCodeFactor = MultiFactorInfo(
        uid: RecoveryCodeMultiFactorID, displayName: "Recovery code", enrollmentTime: 0, factorID: RecoveryCodeMultiFactorID)

    /// Draws a new set of recovery codes, stores their digests in place of the old set, and
    /// returns the codes.
    func generateRecoveryCodes(_ user: User) async throws(AuthError) -> [String] {
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "generating recovery codes")
        guard let codes = RecoveryCodes.generate() else {
            throw AuthError(.internalError, "could not generate recovery codes: OpenSSL's random generator failed")
        }
        let userID = user.identity.userID
        let context = RecoveryCodes.digestContext(userID: userID)
        var digests: [[UInt8]] = []
        for code in codes {
            guard let canonical = RecoveryCodes.canonical(code) else {
                throw AuthError(.internalError, "a generated recovery code does not read back")
            }
            digests.append(try digest(canonical, context: context))
        }
        let event = auditEvent(.recoveryCodesGenerated, userID: userID, factorKind: .recoveryCode)
        try await storeCall("storing recovery codes", recording: event) { try await store.replaceRecoveryCodes(userID: userID, digests: digests) }
        logger.info("recovery codes generated", metadata: ["user": "\(userID)", "count": "\(codes.count)"])
        return codes
    }

    func recoveryCodeCount(_ user: User) async throws(AuthError) -> Int {
        _ = try await liveSession(user)
        let userID = user.identity.userID
        return try await storeCall("counting recovery codes") { try await store.recoveryCodeCount(userID: userID) }
    }

    /// Completes a sign-in with a recovery code: one store call checks the credential and the lock,
    /// spends the code and stores the session.
    func finalizeRecoverySignIn(_ resolver: MultiFactorResolver, code: String) async throws(AuthError) -> AuthDataResult {
        guard !code.isEmpty else {
            throw AuthError(.missingVerificationCode, "no recovery code given: enter one of the codes saved when they were generated")
        }
        let now = clock.now()
        let userID = resolver.identity.userID
        let failureKey = RecoveryCodes.failureKey(userID: userID)
        let credential = resolver.credential
        guard let canonical = RecoveryCodes.canonical(code) else {
            throw await signInFailure(
                credential, failureKey: failureKey, kind: "recovery code", now: now,
                reason: "that is not a recovery code: recovery codes are ten letters and digits, such as k3m9q-7xw2c")
        }
        let digests: [[UInt8]]
        do {
            digests = try codeDigestKeys.codeDigests(canonical, context: RecoveryCodes.digestContext(userID: userID))
        } catch {
            throw AuthError(.internalError, "could not digest the recovery code: \(error)")
        }
        let session = try newSession(resolver.identity, at: now, secondFactor: Self.recoveryCodeFactor)
        let limit = configuration.maximumSessionsPerUser
        let event = auditEvent(
            .recoveryCodeUsed, userID: userID, factorKind: .recoveryCode, provider: resolver.identity.provider.rawValue)
        let completion = try await storeCall("completing the sign-in", recording: event) {
            try await store.completeSignIn(
                credential: credential, recoveryCodeDigests: digests, failureKey: failureKey, at: now, session: session,
                maximumSessionsPerUser: limit)
        }
        switch completion {
        case .completed:
            break
        case .credentialNotFound, .credentialExpired, .locked:
            throw refusal(completion, now: now)
        case .codeRejected, .factorNotFound, .stepRejected, .verificationNotFound, .verificationExpired:
            throw await failure(
                key: failureKey, kind: "recovery code", now: now,
                reason: "wrong or already used recovery code: each code works once; generate a new set when they run out", signingIn: userID)
        }
        logger.info("signed in with a recovery code", metadata: ["user": "\(userID)"])
        let user = signedInUser(resolver.identity, session: session, secondFactor: Self.recoveryCodeFactor, enrolledFactors: resolver.hints)
        return AuthDataResult(user: user, secondFactor: Self.recoveryCodeFactor)
    }

    private func digest(_ code: String, context: String) throws(AuthError) -> [UInt8] {
        do {
            return try codeDigestKeys.codeDigest(code, context: context)
        } catch {
            throw AuthError(.internalError, "could not digest a recovery code: \(error)")
        }
    }
}
