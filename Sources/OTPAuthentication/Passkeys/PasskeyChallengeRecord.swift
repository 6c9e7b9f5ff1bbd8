/// The challenge of a passkey ceremony that has started and not finished: what it is for, under
/// the SHA-256 digest of the challenge.
///
/// Firebase's passkey endpoints return only WebAuthn options at the start and receive only the
/// credential at the end, so the server finds its ceremony again from the challenge the client
/// data carries; each is taken once (``PasskeyStore/takePasskeyChallenge(digest:)``).
public struct PasskeyChallengeRecord: Sendable, Hashable {
    /// SHA-256 of the challenge (32 random bytes); unique.
    public var digest: [UInt8]
    /// The ceremony.
    public var ceremony: PasskeyCeremony
    /// The user registering a passkey; `nil` for a sign-in, which names no user before it ends.
    public var userID: String?
    /// The user handle a registration's options gave the authenticator, which the passkey is
    /// stored with; `nil` for a sign-in.
    public var userHandle: [UInt8]?
    /// The last second the challenge may be answered.
    public var expiresAt: Int64

    /// Creates a record.
    public init(digest: [UInt8], ceremony: PasskeyCeremony, userID: String?, userHandle: [UInt8]?, expiresAt: Int64) {
        self.digest = digest
        self.ceremony = ceremony
        self.userID = userID
        self.userHandle = userHandle
        self.expiresAt = expiresAt
    }
}

/// The WebAuthn ceremony a challenge was made for.
public enum PasskeyCeremony: String, Sendable, Hashable, CaseIterable {
    /// Registering a passkey for a signed-in user (`navigator.credentials.create`).
    case registration
    /// Signing in with a passkey, the user found from the credential (`navigator.credentials.get`).
    case signIn = "sign-in"
    /// Enrolling a passkey as a second factor of a signed-in user.
    case factorRegistration = "factor-registration"
    /// The second step of a sign-in with a passkey factor, for the user of a pending sign-in.
    case factorSignIn = "factor-sign-in"
}
