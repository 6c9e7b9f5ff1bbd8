import OTPCore

extension MultiFactorService {
    /// `mfaEnrollment:start`: checks that the user may enroll, then creates and stores a secret.
    func startEnrollment(_ user: User) async throws(AuthError) -> TOTPSecret {
        guard configuration.isTOTPEnabled else {
            throw AuthError(
                .operationNotAllowed, "TOTP multi-factor authentication is disabled for this project: enable it in the service configuration")
        }
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "enrolling a second factor")
        try checkMayEnroll(user)
        let userID = user.identity.userID
        let factors = try await enrolledFactors(userID: userID)
        guard factors.count < MultiFactorConfiguration.maximumFactorCount else {
            throw AuthError(
                .maximumSecondFactorCountExceeded, "the user already has \(factors.count) second factors, the most allowed: unenroll one first")
        }

        let secret: OTPSecret
        do {
            secret = try OTPSecret.random(byteCount: configuration.secretByteCount)
        } catch {
            throw AuthError(.internalError, "could not generate a secret: \(error)")
        }
        let record = PendingEnrollmentRecord(
            id: try newID(),
            userID: userID,
            secret: secret,
            algorithm: MultiFactorConfiguration.algorithm,
            digits: MultiFactorConfiguration.codeLength,
            period: Int64(MultiFactorConfiguration.codeIntervalSeconds),
            createdAt: now,
            deadline: now + configuration.enrollmentDeadline
        )
        try await storeCall("storing a pending enrollment") { try await store.insertPendingEnrollment(record) }
        logger.info("TOTP enrollment started", metadata: ["user": "\(userID)", "deadline": "\(record.deadline)"])
        return TOTPSecret(
            secret: secret,
            sessionInfo: record.id,
            hashingAlgorithm: record.algorithm.rawValue,
            codeLength: record.digits,
            codeIntervalSeconds: Int(record.period),
            deadline: record.deadline,
            opener: opener
        )
    }

    /// `mfaEnrollment:finalize`: verifies the first code and turns the pending enrollment into a factor.
    /// `deadline` is the secret's, when the caller has it: a pending enrollment already purged is
    /// then told apart as expired.
    func finalizeEnrollment(_ user: User, pendingID: String, deadline: Int64?, code: String, displayName: String?) async throws(AuthError) {
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "enrolling a second factor")
        guard !code.isEmpty else {
            throw AuthError(.missingVerificationCode, "no verification code given: enter the code the authenticator app shows")
        }
        let userID = user.identity.userID
        guard let pending = try await storeCall("reading a pending enrollment", { try await store.pendingEnrollment(id: pendingID) }) else {
            if let deadline, now > deadline {
                throw AuthError(.sessionExpired, "the enrollment expired: start again with generateSecret(with:)")
            }
            throw AuthError(
                .invalidVerificationID,
                "no pending enrollment matches this secret (it was finalized already or never started here): start again with generateSecret(with:)")
        }
        guard pending.userID == userID else {
            throw AuthError(.invalidVerificationID, "this secret belongs to another user's enrollment: start an enrollment for this user")
        }
        guard now <= pending.deadline else {
            try await storeCall("discarding an expired enrollment") {
                try await store.removePendingEnrollment(id: pendingID)
                try await store.resetFailures(key: pendingID)
            }
            logger.info("TOTP enrollment expired", metadata: ["user": "\(userID)"])
            throw AuthError(
                .sessionExpired,
                "the enrollment expired \(now - pending.deadline) seconds ago and its secret was discarded: start again with generateSecret(with:)")
        }
        let counter = try await storeCall("reading failures") { try await store.failureCounter(key: pendingID) }
        if let until = counter.lockEnd(at: now) {
            throw tooManyRequests(until: until, now: now)
        }

        let match: TOTPMatch?
        do {
            let totp = try TOTP(secret: pending.secret, algorithm: pending.algorithm, digits: pending.digits, period: pending.period)
            match = try totp.verify(code, at: now, window: window, after: nil)
        } catch {
            throw await failure(key: pendingID, kind: "enrollment", now: now, reason: "invalid verification code: \(error)")
        }
        guard let match else {
            throw await failure(
                key: pendingID, kind: "enrollment", now: now,
                reason: "wrong verification code: enter the code the authenticator app shows now (check the device's clock)")
        }

        let factor = FactorRecord(
            id: try newID(),
            userID: userID,
            factorID: TOTPMultiFactorID,
            displayName: displayName,
            enrolledAt: now,
            secret: pending.secret,
            algorithm: pending.algorithm,
            digits: pending.digits,
            period: pending.period,
            lastAcceptedStep: match.step
        )
        let outcome = try await storeCall("enrolling the factor") {
            try await store.finalizeEnrollment(pendingID: pendingID, factor: factor, maximumFactorCount: MultiFactorConfiguration.maximumFactorCount)
        }
        switch outcome {
        case .enrolled:
            break
        case .pendingEnrollmentNotFound:
            throw AuthError(.invalidVerificationID, "this enrollment was just finalized by another request: check the enrolled factors")
        case .factorLimitReached:
            throw AuthError(
                .maximumSecondFactorCountExceeded,
                "the user already has \(MultiFactorConfiguration.maximumFactorCount) second factors, the most allowed: unenroll one first")
        }
        if counter.consecutiveFailures > 0 {
            // The pending enrollment is gone; its counter would otherwise outlive it.
            try await storeCall("resetting failures") { try await store.resetFailures(key: pendingID) }
        }
        try cacheVerifier(factor)
        let revoked = try await storeCall("revoking other sessions") { try await store.removeSessions(userID: userID, except: user.sessionID) }
        user.withState { $0.enrolledFactors.append(MultiFactorInfo(factor)) }
        logger.info("TOTP factor enrolled", metadata: ["user": "\(userID)", "enrollment": "\(factor.id)", "revoked-sessions": "\(revoked)"])
    }

    /// `mfaEnrollment:withdraw`: removes a factor, ending the sessions that signed in with it.
    func withdraw(_ user: User, enrollmentID: String) async throws(AuthError) {
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "unenrolling a second factor")
        let userID = user.identity.userID
        var removed = try await storeCall("removing the factor") { try await store.removeFactor(id: enrollmentID, userID: userID) } != nil
        if !removed {
            removed = try await storeCall("removing the factor") { try await store.removePhoneFactor(id: enrollmentID, userID: userID) } != nil
        }
        guard removed else {
            throw AuthError(
                .multiFactorInfoNotFound, "the user has no second factor with this enrollment id: pick one from user.multiFactor.enrolledFactors")
        }
        forgetVerifier(enrollmentID)
        let ended = try await storeCall("ending sessions signed in with the factor") {
            try await store.removeSessions(userID: userID, signedInWith: enrollmentID)
        }
        user.withState { $0.enrolledFactors.removeAll { $0.uid == enrollmentID } }
        logger.info("factor unenrolled", metadata: ["user": "\(userID)", "enrollment": "\(enrollmentID)", "ended-sessions": "\(ended)"])
        if session.secondFactorEnrollmentID == enrollmentID {
            user.withState {
                $0.endedWith = AuthError(
                    .invalidUserToken, "this session ended when the second factor it signed in with was unenrolled: sign in again")
            }
            throw AuthError(.invalidUserToken, "the factor was unenrolled; this session signed in with it and has ended: sign in again")
        }
    }

    func reload(_ user: User) async throws(AuthError) {
        _ = try await liveSession(user)
        let userID = user.identity.userID
        let factors = try await enrolledFactors(userID: userID)
        user.withState { $0.enrolledFactors = factors }
    }

    /// The user's factors as the owner sees them (phone numbers whole): TOTP factors, then phone
    /// factors, each oldest first.
    func enrolledFactors(userID: String) async throws(AuthError) -> [MultiFactorInfo] {
        let totp = try await storeCall("listing factors") { try await store.factors(userID: userID) }
        let phone = try await storeCall("listing phone factors") { try await store.phoneFactors(userID: userID) }
        return totp.map(MultiFactorInfo.init) + phone.map { MultiFactorInfo($0, masked: false) }
    }

    /// The first-factor rules of enrolling any second factor: a provider that combines with
    /// multi-factor authentication, and a verified email address.
    func checkMayEnroll(_ user: User) throws(AuthError) {
        let provider = user.identity.provider
        guard provider.supportsMultiFactor else {
            throw AuthError(
                .unsupportedFirstFactor,
                "a user signed in with \"\(provider.rawValue)\" cannot enroll a second factor: anonymous, phone, custom-token and Game Center sign-ins do not combine with multi-factor authentication"
            )
        }
        guard user.identity.email != nil, user.identity.isEmailVerified else {
            throw AuthError(.unverifiedEmail, "the user's email address must be verified before enrolling a second factor")
        }
    }
}
