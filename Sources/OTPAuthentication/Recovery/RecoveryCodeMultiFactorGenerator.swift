/// Recovery codes: OTPKit's own addition to Firebase's second factors, for the user who lost the
/// phone that holds their authenticator.
///
/// A set of ten single-use codes, shown once when generated and kept by the store only as keyed
/// digests. Any one of them completes a sign-in through the same ``MultiFactorResolver`` as a
/// second factor would; each works once, and generating a new set voids the old one. Wrong codes
/// count toward the same lock-out as wrong TOTP codes. The codes come into play only for users
/// with an enrolled second factor: a sign-in asks for a second factor only then.
///
/// ```swift
/// let codes = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await user.multiFactor.session())
/// // show codes once; later, in a sign-in:
/// let result = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: typed))
/// ```
public enum RecoveryCodeMultiFactorGenerator {
    /// Generates a new set of recovery codes for the user of `session` (from
    /// ``MultiFactor/session()``), voiding the previous set, and returns them to show once, in
    /// the form `k3m9q-7xw2c`.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidMultiFactorSession`` for a sign-in
    ///   resolver's session, ``AuthErrorCode/requiresRecentLogin``,
    ///   ``AuthErrorCode/userTokenExpired`` or ``AuthErrorCode/invalidUserToken``.
    public static func generateCodes(with session: MultiFactorSession) async throws(AuthError) -> [String] {
        switch session.kind {
        case .user(let user):
            return try await user.service.generateRecoveryCodes(user)
        case .signIn:
            throw AuthError(
                .invalidMultiFactorSession,
                "a sign-in resolver's session cannot generate recovery codes: get the session from user.multiFactor.session() after signing in")
        }
    }

    /// An assertion that completes a sign-in with a recovery code as the user typed it (any case;
    /// spaces and hyphens ignored).
    public static func assertion(withCode code: String) -> RecoveryCodeMultiFactorAssertion {
        RecoveryCodeMultiFactorAssertion(code: code)
    }
}
