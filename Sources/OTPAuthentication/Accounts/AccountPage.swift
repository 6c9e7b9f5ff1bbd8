/// One page of a listing of every account (``AccountAdministration/accounts(after:limit:)``).
public struct AccountPage: Sendable, Hashable {
    /// The accounts, in the order of their ids' UTF-8 bytes.
    public var accounts: [AccountDetails]
    /// The id the next page starts after, or `nil` when this page is the last.
    public var nextAfter: String?

    /// A page.
    public init(accounts: [AccountDetails], nextAfter: String?) {
        self.accounts = accounts
        self.nextAfter = nextAfter
    }
}
