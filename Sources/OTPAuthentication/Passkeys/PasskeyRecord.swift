/// A registered passkey: the credential a WebAuthn authenticator made for a user, with what the
/// relying party keeps to verify its assertions (W3C Web Authentication section 7.1, step 27).
public struct PasskeyRecord: Sendable, Hashable {
    /// The credential id the authenticator chose (at most 1,023 bytes); unique among all passkeys.
    public var credentialID: [UInt8]
    /// The user the passkey signs in.
    public var userID: String
    /// The opaque user handle the authenticator keeps with the credential and returns with each
    /// assertion (random bytes, never the user id), the same for all of a user's passkeys.
    public var userHandle: [UInt8]
    /// The name the user gave it.
    public var name: String
    /// The credential public key, a COSE_Key as the authenticator encoded it.
    public var publicKey: [UInt8]
    /// The signature counter of the last verified assertion (0 for authenticators without one).
    public var signCount: UInt32
    /// Whether the authenticator has verified the user (a PIN, a fingerprint) with this credential.
    public var isUserVerified: Bool
    /// Whether the credential may be synced between devices (flag BE), fixed at registration.
    public var isBackupEligible: Bool
    /// Whether it was backed up at its last use (flag BS).
    public var isBackedUp: Bool
    /// The authenticator model (16 zero bytes when it did not say).
    public var aaguid: [UInt8]
    /// When it was registered.
    public var createdAt: Int64
    /// When it last signed in, if ever.
    public var lastUsedAt: Int64?
    /// For a passkey enrolled as a second factor (OTPKit's extension of Firebase's multi-factor
    /// authentication), its enrollment id, unique among all factors; `nil` for a passkey that signs
    /// in alone.
    public var enrollmentID: String?

    /// Creates a record.
    public init(
        credentialID: [UInt8], userID: String, userHandle: [UInt8], name: String, publicKey: [UInt8], signCount: UInt32,
        isUserVerified: Bool, isBackupEligible: Bool, isBackedUp: Bool, aaguid: [UInt8], createdAt: Int64, lastUsedAt: Int64? = nil,
        enrollmentID: String? = nil
    ) {
        self.credentialID = credentialID
        self.userID = userID
        self.userHandle = userHandle
        self.name = name
        self.publicKey = publicKey
        self.signCount = signCount
        self.isUserVerified = isUserVerified
        self.isBackupEligible = isBackupEligible
        self.isBackedUp = isBackedUp
        self.aaguid = aaguid
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.enrollmentID = enrollmentID
    }
}

extension PasskeyRecord {
    /// Records `use` when the counter is still `previousSignCount` (the compare-and-set every
    /// store applies): whether it did.
    public mutating func record(_ use: PasskeyUse, previousSignCount: UInt32) -> Bool {
        guard signCount == previousSignCount else { return false }
        signCount = use.signCount
        isBackedUp = use.isBackedUp
        isUserVerified = isUserVerified || use.isUserVerified
        lastUsedAt = use.at
        return true
    }
}

/// What a verified assertion changes in a ``PasskeyRecord``
/// (``PasskeyStore/recordPasskeyUse(credentialID:previousSignCount:use:)``).
public struct PasskeyUse: Sendable, Hashable {
    /// The assertion's signature counter.
    public var signCount: UInt32
    /// Whether this assertion verified the user; once true, the record stays so.
    public var isUserVerified: Bool
    /// The assertion's backup state (flag BS).
    public var isBackedUp: Bool
    /// When.
    public var at: Int64

    /// Creates a use.
    public init(signCount: UInt32, isUserVerified: Bool, isBackedUp: Bool, at: Int64) {
        self.signCount = signCount
        self.isUserVerified = isUserVerified
        self.isBackedUp = isBackedUp
        self.at = at
    }
}

/// The outcome of ``PasskeyStore/insertPasskey(_:maximumPerUser:)``.
public enum PasskeyInsertion: Sendable, Hashable {
    /// The passkey was stored.
    case inserted
    /// A passkey with that credential id exists (this user's or another's); nothing changed.
    case credentialInUse
    /// The user has the maximum number of passkeys (for a second factor: of factors of every
    /// kind); nothing changed.
    case limitReached
    /// The account is gone; nothing changed.
    case accountNotFound
}
