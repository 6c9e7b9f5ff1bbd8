/// Passkeys and security keys (WebAuthn) as a second factor: OTPKit's extension of Firebase's
/// multi-factor authentication, which has none.
///
/// An enrollment asks the browser (`navigator.credentials.create`) for a credential of the
/// relying party in ``PasskeySettings``; a sign-in's second step asks for an assertion by that
/// credential. User verification is preferred, not required: the first factor already proved who
/// the user is, and a security key without a PIN proves possession. A credential is a second
/// factor or a passkey that signs in alone, never both.
///
/// ```swift
/// let options = try await WebAuthnMultiFactorGenerator.creationOptions(with: try await user.multiFactor.session())
/// // → navigator.credentials.create → response
/// try await user.multiFactor.enroll(with: WebAuthnMultiFactorGenerator.assertionForEnrollment(with: response), displayName: "YubiKey")
/// // later, in a sign-in:
/// let request = try await WebAuthnMultiFactorGenerator.requestOptions(for: resolver, enrollmentID: hint.uid)
/// // → navigator.credentials.get → assertion
/// let result = try await resolver.resolveSignIn(with: WebAuthnMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, response: assertion))
/// ```
public enum WebAuthnMultiFactorGenerator {
    /// Options for `navigator.credentials.create` that enroll a credential as a second factor of
    /// the user of `session` (from ``MultiFactor/session()``).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/passkeyNotEnabled``,
    ///   ``AuthErrorCode/maximumSecondFactorCountExceeded``, ``AuthErrorCode/requiresRecentLogin``,
    ///   ``AuthErrorCode/unverifiedEmail``, ``AuthErrorCode/invalidMultiFactorSession`` for a
    ///   sign-in's session, or ``AuthErrorCode/userTokenExpired``.
    public static func creationOptions(with session: MultiFactorSession) async throws(AuthError) -> PasskeyCreationOptions {
        switch session.kind {
        case .user(let user):
            return try await user.service.startWebAuthnEnrollment(user)
        case .signIn:
            throw AuthError(
                .invalidMultiFactorSession,
                "a sign-in resolver's session cannot enroll a factor: get the session from user.multiFactor.session() after signing in")
        }
    }

    /// Options for `navigator.credentials.get` that complete the sign-in of `resolver` with its
    /// passkey factor `enrollmentID` (one of its hints).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/multiFactorInfoNotFound``,
    ///   ``AuthErrorCode/sessionExpired``, ``AuthErrorCode/invalidMultiFactorSession``,
    ///   ``AuthErrorCode/tooManyRequests`` or ``AuthErrorCode/passkeyNotEnabled``.
    public static func requestOptions(for resolver: MultiFactorResolver, enrollmentID: String) async throws(AuthError) -> PasskeyRequestOptions {
        try await resolver.service.startWebAuthnSignIn(resolver.credential, enrollmentID: enrollmentID)
    }

    /// An assertion that enrolls the credential of `response`.
    public static func assertionForEnrollment(with response: PasskeyRegistrationResponse) -> WebAuthnMultiFactorAssertion {
        WebAuthnMultiFactorAssertion(proof: .registration(response))
    }

    /// An assertion that completes a sign-in with the passkey factor `enrollmentID`.
    public static func assertionForSignIn(withEnrollmentID enrollmentID: String, response: PasskeyAssertionResponse)
        -> WebAuthnMultiFactorAssertion
    {
        WebAuthnMultiFactorAssertion(proof: .assertion(enrollmentID: enrollmentID, response))
    }
}

/// A credential's registration or assertion offered as a second factor
/// (``WebAuthnMultiFactorGenerator``; OTPKit's own addition to Firebase's factors).
public struct WebAuthnMultiFactorAssertion: MultiFactorAssertion {
    enum Proof: Sendable {
        case registration(PasskeyRegistrationResponse)
        case assertion(enrollmentID: String, PasskeyAssertionResponse)
    }

    let proof: Proof

    /// ``WebAuthnMultiFactorID`` (`"webauthn"`).
    public var factorID: String { WebAuthnMultiFactorID }
}

/// The factor id of passkey second factors (OTPKit's own; Firebase has none).
public let WebAuthnMultiFactorID = FactorKind.webauthn.factorID
