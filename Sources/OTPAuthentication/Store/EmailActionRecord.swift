/// An email action whose message went out and whose code was not used yet: what the code does,
/// for which account and address, and until when, under the keyed digest of the code (never the
/// code itself).
public struct EmailActionRecord: Sendable, Hashable {
    /// The keyed digest of the code; unique.
    public var codeDigest: [UInt8]
    /// What the code does.
    public var kind: EmailActionKind
    /// The account it acts on; `nil` for a sign-in link to an address without an account, which
    /// signing in creates.
    public var accountID: String?
    /// The address the message went to, normalized (``EmailAddress``).
    public var email: String
    /// For ``EmailActionKind/verifyAndChangeEmail``: the address the account's becomes.
    public var newEmail: String?
    /// When the code was made.
    public var createdAt: Int64
    /// The last second at which the code may be used.
    public var expiresAt: Int64

    /// Creates a record.
    public init(
        codeDigest: [UInt8], kind: EmailActionKind, accountID: String?, email: String, newEmail: String?, createdAt: Int64, expiresAt: Int64
    ) {
        self.codeDigest = codeDigest
        self.kind = kind
        self.accountID = accountID
        self.email = email
        self.newEmail = newEmail
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What ``EmailActionStore/completeEmailAction(digest:at:changes:)`` did.
public enum EmailActionCompletion: Sendable, Hashable {
    /// The code was used and is gone; the changes, when given, were made to its account, which
    /// is then as given here.
    case completed(account: AccountRecord?)
    /// No code has the digest: it was used, or never made.
    case notFound
    /// The code expired; it is gone.
    case expired
    /// The changes could not be made (the account is gone, or its new address is another
    /// account's); nothing changed and the code stays usable.
    case accountNotUpdated(AccountUpdate)
}
