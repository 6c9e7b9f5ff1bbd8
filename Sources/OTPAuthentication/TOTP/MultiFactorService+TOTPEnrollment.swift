import OTPCore

extension MultiFactorService {
    /// `mfaEnrollment:start`: checks that the user may enroll, then creates and stores a secret.
    func startTOTPEnrollment(_ user: User) async throws(AuthError) -> TOTPSecret {
        guard configuration.isTOTPEnabled else {
            throw AuthError(
                .operationNotAllowed, "TOTP multi-factor authentication is disabled for this project: enable it in the service configuration")
        }
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "enrolling a second factor")
        try checkMayEnroll(user)
        let userID = user.identity.userID
        _ = try await factorsLeavingRoom(userID: userID)

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
    func finalizeTOTPEnrollment(_ user: User, pendingID: String, deadline: Int64?, code: String, displayName: String?) async throws(AuthError) {
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
        let event = auditEvent(.factorEnrolled, userID: userID, factorKind: .totp, factorID: factor.id)
        let outcome = try await storeCall("enrolling the factor", recording: event) {
            try await store.finalizeEnrollment(pendingID: pendingID, factor: factor, maximumFactorCount: MultiFactorConfiguration.maximumFactorCount)
        }
        switch outcome {
        case .enrolled:
            break
        case .pendingEnrollmentNotFound:
            throw AuthError(.invalidVerificationID, "this enrollment was just finalized by another request: check the enrolled factors")
        case .factorLimitReached:
            throw factorLimitReached()
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
}
