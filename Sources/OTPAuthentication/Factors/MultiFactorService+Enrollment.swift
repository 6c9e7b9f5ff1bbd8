extension MultiFactorService {
    /// `mfaEnrollment:withdraw`: removes a factor, ending the sessions that signed in with it.
    func withdraw(_ user: User, enrollmentID: String) async throws(AuthError) {
        let session = try await liveSession(user)
        let now = clock.now()
        try requireRecentLogin(session, now: now, for: "unenrolling a second factor")
        let userID = user.identity.userID
        guard try await removeFactor(enrollmentID, userID: userID) else {
            throw AuthError(
                .multiFactorInfoNotFound, "the user has no second factor with this enrollment id: pick one from user.multiFactor.enrolledFactors")
        }
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

    func rename(_ user: User, enrollmentID: String, to displayName: String?) async throws(AuthError) {
        _ = try await liveSession(user)
        let name = displayName.flatMap { $0.isEmpty ? nil : $0 }
        guard try await renameFactor(enrollmentID, userID: user.identity.userID, to: name) else {
            throw AuthError(
                .multiFactorInfoNotFound, "the user has no second factor with this enrollment id: pick one from user.multiFactor.enrolledFactors")
        }
        user.withState { state in
            state.enrolledFactors = state.enrolledFactors.map { factor in
                guard factor.uid == enrollmentID else { return factor }
                return MultiFactorInfo(
                    uid: factor.uid, displayName: name, enrollmentTime: factor.enrollmentTime, factorID: factor.factorID,
                    phoneNumber: factor.phoneNumber)
            }
        }
    }

    /// The user's factors, checked to leave room for one more (``MultiFactorConfiguration/maximumFactorCount``).
    func factorsLeavingRoom(userID: String) async throws(AuthError) -> [MultiFactorInfo] {
        let factors = try await enrolledFactors(userID: userID)
        guard factors.count < MultiFactorConfiguration.maximumFactorCount else { throw factorLimitReached(factors.count) }
        return factors
    }

    /// The refusal of a factor beyond the limit, the user having `count` already.
    func factorLimitReached(_ count: Int = MultiFactorConfiguration.maximumFactorCount) -> AuthError {
        AuthError(.maximumSecondFactorCountExceeded, "the user already has \(count) second factors, the most allowed: unenroll one first")
    }

    func reload(_ user: User) async throws(AuthError) {
        _ = try await liveSession(user)
        let userID = user.identity.userID
        let factors = try await enrolledFactors(userID: userID)
        user.withState { $0.enrolledFactors = factors }
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
