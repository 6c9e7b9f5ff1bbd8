/// Firebase's entry points for phone (SMS) codes, for second factors and for the phone number as
/// a first factor: sending a code, and the credential that carries it back.
///
/// ```swift
/// // Enrollment, after signing in:
/// let verificationID = try await PhoneAuthProvider.provider().verifyPhoneNumber(
///     "+1 201 555 0123", multiFactorSession: try await user.multiFactor.session())
/// let credential = PhoneAuthProvider.provider().credential(withVerificationID: verificationID, verificationCode: typed)
/// try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: "Phone")
///
/// // Sign-in, with a resolver's phone hint:
/// let id = try await PhoneAuthProvider.provider().verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
/// let result = try await resolver.resolveSignIn(
///     with: PhoneMultiFactorGenerator.assertion(with: PhoneAuthProvider.provider().credential(withVerificationID: id, verificationCode: typed)))
///
/// // The number as a first factor: sign in with it, or link it to a signed-in user.
/// let provider = PhoneAuthProvider.provider(service: service)
/// let sent = try await provider.verifyPhoneNumber("+1 201 555 0123")
/// let result = try await service.signIn(with: provider.credential(withVerificationID: sent, verificationCode: typed))
/// ```
public struct PhoneAuthProvider: Sendable {
    /// Firebase's `PhoneAuthProvider.id`.
    public static let id = "phone"

    /// The service first-factor codes are sent by; second-factor calls take it from their session.
    private let service: MultiFactorService?

    /// The provider (Firebase's `PhoneAuthProvider.provider()`). The service comes from the
    /// session each call is given.
    public static func provider() -> PhoneAuthProvider {
        PhoneAuthProvider(service: nil)
    }

    /// The provider of `service` (Firebase's `PhoneAuthProvider.provider(auth:)`), which can also
    /// send first-factor codes with ``verifyPhoneNumber(_:)``.
    public static func provider(service: MultiFactorService) -> PhoneAuthProvider {
        PhoneAuthProvider(service: service)
    }

    /// Sends a code to `phoneNumber` for signing in with the number or linking it to a user (the
    /// phone number as a first factor), and returns the verification id. Pass the credential of
    /// the code to ``MultiFactorService/signIn(with:)-(PhoneAuthCredential)`` or
    /// ``User/link(with:)-(PhoneAuthCredential)``.
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidPhoneNumber``,
    ///   ``AuthErrorCode/operationNotAllowed`` (codes disabled, or a provider made without a
    ///   service), ``AuthErrorCode/tooManyRequests`` or ``AuthErrorCode/quotaExceeded`` (send
    ///   quotas), or ``AuthErrorCode/internalError`` when the message could not be sent.
    public func verifyPhoneNumber(_ phoneNumber: String) async throws(AuthError) -> String {
        guard let service else {
            throw AuthError(
                .operationNotAllowed, "this provider has no service to send first-factor codes: use PhoneAuthProvider.provider(service:)")
        }
        return try await service.startFirstFactorPhoneVerification(phoneNumber)
    }

    /// Sends a code to `phoneNumber` to enroll it as a second factor of the user of
    /// `multiFactorSession` (from ``MultiFactor/session()``), and returns the verification id.
    ///
    /// The number is read by libphonenumber (international form, or national form in the
    /// configured ``PhoneSettings/defaultRegion``).
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidPhoneNumber``,
    ///   ``AuthErrorCode/secondFactorAlreadyEnrolled``, ``AuthErrorCode/maximumSecondFactorCountExceeded``,
    ///   ``AuthErrorCode/operationNotAllowed`` (phone factors disabled),
    ///   ``AuthErrorCode/tooManyRequests`` or ``AuthErrorCode/quotaExceeded`` (send quotas),
    ///   ``AuthErrorCode/requiresRecentLogin``, ``AuthErrorCode/unverifiedEmail``,
    ///   ``AuthErrorCode/unsupportedFirstFactor``, ``AuthErrorCode/invalidMultiFactorSession`` (a
    ///   resolver's session), or ``AuthErrorCode/internalError`` when the message could not be sent.
    public func verifyPhoneNumber(_ phoneNumber: String, multiFactorSession: MultiFactorSession) async throws(AuthError) -> String {
        switch multiFactorSession.kind {
        case .user(let user):
            return try await user.service.startPhoneEnrollment(user, phoneNumber: phoneNumber)
        case .signIn:
            throw AuthError(
                .invalidMultiFactorSession,
                "a sign-in resolver's session cannot enroll a phone number: to sign in, call verifyPhoneNumber(with:multiFactorSession:) with one of its hints"
            )
        }
    }

    /// Sends a code to the phone factor `hint` (one of a resolver's ``MultiFactorResolver/hints``)
    /// to complete the sign-in of `multiFactorSession` (the resolver's ``MultiFactorResolver/session``),
    /// and returns the verification id. The code goes to the number the factor was enrolled with;
    /// the hint's masked number is not used.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/multiFactorInfoNotFound``,
    ///   ``AuthErrorCode/invalidMultiFactorSession``, ``AuthErrorCode/sessionExpired``,
    ///   ``AuthErrorCode/tooManyRequests``, ``AuthErrorCode/quotaExceeded`` or
    ///   ``AuthErrorCode/internalError`` when the message could not be sent.
    public func verifyPhoneNumber(with hint: MultiFactorInfo, multiFactorSession: MultiFactorSession) async throws(AuthError) -> String {
        switch multiFactorSession.kind {
        case .signIn(let credential, let service):
            return try await service.startPhoneSignIn(credential, enrollmentID: hint.uid)
        case .user:
            throw AuthError(
                .missingMultiFactorSession,
                "a signed-in user's session cannot start a sign-in: use the resolver's session from the secondFactorRequired error")
        }
    }

    /// The credential of a code the user received (Firebase's
    /// `credential(withVerificationID:verificationCode:)`).
    public func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(verificationID: verificationID, verificationCode: verificationCode)
    }
}

/// A verification id and the code the user typed for it.
public struct PhoneAuthCredential: Sendable, Hashable {
    /// The id ``PhoneAuthProvider/verifyPhoneNumber(_:multiFactorSession:)`` returned.
    public let verificationID: String
    /// The code from the text message.
    public let verificationCode: String
}

/// Firebase's entry point for phone assertions.
public enum PhoneMultiFactorGenerator {
    /// The assertion that enrolls, or signs in with, the phone factor of `credential`.
    public static func assertion(with credential: PhoneAuthCredential) -> PhoneMultiFactorAssertion {
        PhoneMultiFactorAssertion(credential: credential)
    }
}

/// Proof of a phone factor: a code sent by text message.
public struct PhoneMultiFactorAssertion: MultiFactorAssertion {
    let credential: PhoneAuthCredential

    /// ``PhoneMultiFactorID`` (`"phone"`).
    public var factorID: String { PhoneMultiFactorID }
}
