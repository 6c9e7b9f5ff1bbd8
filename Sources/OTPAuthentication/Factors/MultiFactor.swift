/// A user's second factors (Firebase's `user.multiFactor`).
///
/// A view of the signed-in user's shared state, so copies see the same factors.
public struct MultiFactor: Sendable {
    let user: User

    init(user: User) {
        self.user = user
    }

    /// The enrolled factors as of sign-in and this object's own enroll and unenroll calls
    /// (Firebase keeps this list on the user; ``reload()`` refreshes it).
    public var enrolledFactors: [MultiFactorInfo] { user.withState { $0.enrolledFactors } }

    /// The session that ``TOTPMultiFactorGenerator/generateSecret(with:)`` needs.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` when the session was
    ///   revoked, or ``AuthErrorCode/invalidUserToken`` when it ended.
    public func session() async throws(AuthError) -> MultiFactorSession {
        _ = try await user.service.liveSession(user)
        return MultiFactorSession(kind: .user(user))
    }

    /// Finishes an enrollment with an assertion from
    /// ``TOTPMultiFactorGenerator/assertionForEnrollment(with:oneTimePassword:)``.
    ///
    /// On success the factor is enrolled and every other session of the user is revoked.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidVerificationCode``,
    ///   ``AuthErrorCode/sessionExpired`` (after the enrollment deadline; the secret is then
    ///   discarded), ``AuthErrorCode/tooManyRequests``, ``AuthErrorCode/requiresRecentLogin``,
    ///   ``AuthErrorCode/maximumSecondFactorCountExceeded``, ``AuthErrorCode/missingVerificationID``
    ///   (a sign-in assertion), ``AuthErrorCode/invalidVerificationID`` or
    ///   ``AuthErrorCode/missingVerificationCode``.
    public func enroll(with assertion: any MultiFactorAssertion, displayName: String?) async throws(AuthError) {
        guard let assertion = assertion as? any VerifiableAssertion else {
            throw AuthError(
                .operationNotAllowed,
                "unsupported assertion for factor \"\(assertion.factorID)\": make it with this module's generators, such as TOTPMultiFactorGenerator")
        }
        try await assertion.enroll(user, displayName: displayName)
    }

    /// Removes an enrolled factor.
    /// - Throws: see ``unenroll(withFactorUID:)``.
    public func unenroll(with factorInfo: MultiFactorInfo) async throws(AuthError) {
        try await unenroll(withFactorUID: factorInfo.uid)
    }

    /// Removes the enrolled factor `factorUID`.
    ///
    /// When that factor completed this session's sign-in, the session ends: the factor is removed
    /// and the call then throws ``AuthErrorCode/invalidUserToken`` (as Firebase's iOS SDK does);
    /// the user must sign in again.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/multiFactorInfoNotFound``,
    ///   ``AuthErrorCode/requiresRecentLogin``, ``AuthErrorCode/invalidUserToken`` or
    ///   ``AuthErrorCode/userTokenExpired``.
    public func unenroll(withFactorUID factorUID: String) async throws(AuthError) {
        try await user.service.withdraw(user, enrollmentID: factorUID)
    }

    /// Gives the enrolled factor `factorUID` another name, or none (`nil` or empty), as the user
    /// sees it in ``enrolledFactors`` and in a sign-in's hints. OTPKit's own addition: Firebase
    /// names a factor only when it is enrolled.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/multiFactorInfoNotFound``,
    ///   ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/invalidUserToken``.
    public func renameFactor(withUID factorUID: String, to displayName: String?) async throws(AuthError) {
        try await user.service.rename(user, enrollmentID: factorUID, to: displayName)
    }

    /// How many unused recovery codes the user has (``RecoveryCodeMultiFactorGenerator``; OTPKit's
    /// own addition).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/userTokenExpired`` or
    ///   ``AuthErrorCode/invalidUserToken`` when the session ended.
    public func recoveryCodeCount() async throws(AuthError) -> Int {
        try await user.service.recoveryCodeCount(user)
    }

    /// Reads the enrolled factors again from the store.
    public func reload() async throws(AuthError) {
        try await user.service.reload(user)
    }
}
