/// Firebase's entry points for TOTP second factors.
public enum TOTPMultiFactorGenerator {
    /// Starts a TOTP enrollment for the user of `session` (from ``MultiFactor/session()``) and
    /// returns the new secret to show.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidMultiFactorSession`` for a sign-in
    ///   resolver's session, ``AuthErrorCode/operationNotAllowed`` when TOTP is disabled,
    ///   ``AuthErrorCode/requiresRecentLogin``, ``AuthErrorCode/unsupportedFirstFactor``,
    ///   ``AuthErrorCode/unverifiedEmail``, ``AuthErrorCode/maximumSecondFactorCountExceeded``,
    ///   ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/invalidUserToken``.
    public static func generateSecret(with session: MultiFactorSession) async throws(AuthError) -> TOTPSecret {
        switch session.kind {
        case .user(let user):
            return try await user.service.startTOTPEnrollment(user)
        case .signIn:
            throw AuthError(
                .invalidMultiFactorSession,
                "a sign-in resolver's session cannot start an enrollment: get the session from user.multiFactor.session() after signing in")
        }
    }

    /// An assertion that finishes enrolling `secret` with the first code the user's app shows.
    public static func assertionForEnrollment(with secret: TOTPSecret, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(purpose: .enrollment(secret), oneTimePassword: oneTimePassword)
    }

    /// An assertion that finishes the enrollment whose ``TOTPSecret/sessionInfo`` is `sessionInfo`,
    /// for a server whose client kept only that (Firebase's `totpVerificationInfo.sessionInfo`).
    public static func assertionForEnrollment(withSessionInfo sessionInfo: String, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(purpose: .enrollmentSession(sessionInfo), oneTimePassword: oneTimePassword)
    }

    /// An assertion that completes a sign-in with the factor `enrollmentID` (a hint's ``MultiFactorInfo/uid``).
    public static func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(purpose: .signIn(enrollmentID: enrollmentID), oneTimePassword: oneTimePassword)
    }
}
