/// An account as an import brings it: a user of Firebase's `accounts:batchCreate`, a record of
/// `firebase auth:export` (``AccountAdministration/importAccounts(_:)``).
public struct ImportedAccount: Sendable, Hashable {
    /// The uid it keeps.
    public var id: String
    /// The address, normalized and unique among accounts; none when `nil`.
    public var email: String?
    /// Whether the address counts as verified.
    public var isEmailVerified: Bool
    /// The display name, if any.
    public var displayName: String?
    /// The photo URL, if any.
    public var photoURL: String?
    /// Whether the account is disabled.
    public var isDisabled: Bool
    /// When the account was created, in Unix seconds; the time of the import when `nil`.
    public var createdAt: Int64?
    /// When its user last signed in, in Unix seconds.
    public var lastSignInAt: Int64?
    /// The phone number, linked as the `phone` identity, in any form ``PhoneAuthProvider`` takes.
    public var phoneNumber: String?
    /// The custom claims, one JSON object serialized; the caller checks what they hold.
    public var customAttributes: String?
    /// The password hash, in the form ``PasswordHasher`` reads
    /// (``PasswordHasher/standardScryptHash(derivedKey:salt:n:r:p:)`` makes one of Firebase's
    /// `STANDARD_SCRYPT` parts); it needs an address. `nil` for no password.
    public var passwordHash: String?
    /// Its identities at federated providers.
    public var identities: [ProviderIdentity]
    /// Its second factors, each enrolled under a new enrollment id.
    public var secondFactors: [ImportedFactor]

    /// An account to import.
    public init(
        id: String, email: String? = nil, isEmailVerified: Bool = false, displayName: String? = nil, photoURL: String? = nil,
        isDisabled: Bool = false, createdAt: Int64? = nil, lastSignInAt: Int64? = nil, phoneNumber: String? = nil,
        customAttributes: String? = nil, passwordHash: String? = nil, identities: [ProviderIdentity] = [], secondFactors: [ImportedFactor] = []
    ) {
        self.id = id
        self.email = email
        self.isEmailVerified = isEmailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.isDisabled = isDisabled
        self.createdAt = createdAt
        self.lastSignInAt = lastSignInAt
        self.phoneNumber = phoneNumber
        self.customAttributes = customAttributes
        self.passwordHash = passwordHash
        self.identities = identities
        self.secondFactors = secondFactors
    }
}

/// A second factor an import brings (Firebase's `mfaInfo`): a phone number, or a TOTP factor with
/// its shared secret, which Firebase's own exports do not carry (OTPKit's extension).
public enum ImportedFactor: Sendable, Hashable {
    /// A phone factor: the number in any form ``PhoneAuthProvider`` takes.
    case phone(phoneNumber: String, displayName: String?, enrolledAt: Int64?)
    /// A TOTP factor of Firebase's parameters (SHA-1, 6 digits, 30 seconds) with its shared secret.
    case totp(secret: [UInt8], displayName: String?, enrolledAt: Int64?)
}

/// An account an import did not make, with why (Firebase's `accounts:batchCreate` reports these
/// in `error`, and firebase-admin's `import_users` as `errors`).
public struct AccountImportFailure: Sendable, Hashable {
    /// The position of the account in the import.
    public var index: Int
    /// Why it was not made, for a person.
    public var message: String

    /// A failure.
    public init(index: Int, message: String) {
        self.index = index
        self.message = message
    }
}
