public import OTPWebAuthn

/// What a client passes to `navigator.credentials.get` (W3C's `PublicKeyCredentialRequestOptions`)
/// to sign in with a passkey: Firebase's `credentialRequestOptions`. It names no credential: the
/// authenticator offers the user's discoverable ones, and the assertion says whose it is.
public struct PasskeyRequestOptions: Sendable, Hashable {
    /// 32 random bytes, valid for one sign-in until ``PasskeySettings/challengeLifetime``.
    public var challenge: [UInt8]
    public var relyingPartyID: String
    public var userVerification: UserVerification
    /// The credentials that may answer: none for a passkey sign-in, the factor's for a second step.
    public var allowedCredentials: [[UInt8]]
    /// Milliseconds.
    public var timeout: Int64
}
