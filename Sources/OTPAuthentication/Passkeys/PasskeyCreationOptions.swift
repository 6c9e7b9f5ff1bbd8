public import OTPWebAuthn

/// What a client passes to `navigator.credentials.create` (W3C's
/// `PublicKeyCredentialCreationOptions`) to register a passkey: Firebase's
/// `credentialCreationOptions`.
public struct PasskeyCreationOptions: Sendable, Hashable {
    /// 32 random bytes, valid for one registration until ``PasskeySettings/challengeLifetime``.
    public var challenge: [UInt8]
    public var relyingPartyID: String
    public var relyingPartyName: String
    /// The user's handle: random, the same for all of the user's passkeys, never the user id.
    public var userHandle: [UInt8]
    /// What authenticators show as the account: the address, or the user id without one.
    public var userName: String
    public var userDisplayName: String
    /// The COSE algorithms accepted, in order of preference.
    public var algorithms: [COSEAlgorithm]
    /// The credential ids the user has registered, which an authenticator holding one refuses to
    /// register again.
    public var excludedCredentials: [[UInt8]]
    public var userVerification: UserVerification
    /// Whether the credential must be discoverable (a passkey that signs in alone names no user
    /// beforehand); a second factor's need not be.
    public var requiresResidentKey: Bool
    /// Milliseconds.
    public var timeout: Int64
}
