/// An account a batch deletion left in place
/// (``AccountAdministration/deleteAccounts(ids:force:)``; firebase-admin's `delete_users` reports
/// these as errors).
public struct AccountDeletionFailure: Sendable, Hashable {
    /// The position of the id in the request.
    public var index: Int
    /// The account's id.
    public var accountID: String
    /// Why it was left, for a person.
    public var message: String

    /// A failure.
    public init(index: Int, accountID: String, message: String) {
        self.index = index
        self.accountID = accountID
        self.message = message
    }
}
