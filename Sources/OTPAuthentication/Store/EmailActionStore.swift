/// The codes of email actions (``EmailActionRecord``) waiting to be used, kept by the keyed digest
/// of the code until they are used or expire.
///
/// A requirement of ``AuthStore``.
public protocol EmailActionStore: Sendable {
    /// Stores `action`; its ``EmailActionRecord/codeDigest`` is new (made from 32 random bytes).
    func insertEmailAction(_ action: EmailActionRecord) async throws

    /// The action whose digest is one of `digests` (a code's digest under each code digest key,
    /// current first), whether or not it expired; `nil` when there is none.
    func emailAction(digests: [[UInt8]]) async throws -> EmailActionRecord?

    /// Deletes the action with `digest`, whose message could not be sent; whether there was one.
    func deleteEmailAction(digest: [UInt8]) async throws -> Bool

    /// Uses the action with `digest` in one atomic operation, checking in this order:
    /// 1. there is one (otherwise ``EmailActionCompletion/notFound``);
    /// 2. it has not expired at `time` (otherwise ``EmailActionCompletion/expired``, and it is
    ///    deleted);
    /// 3. with `changes`, the account `accountID` (the action's own when `nil`: a signed-in user
    ///    linking an address takes it to the user's account) is updated as
    ///    ``AccountStore/updateAccount(id:changes:)`` does (otherwise
    ///    ``EmailActionCompletion/accountNotUpdated(_:)``, and nothing changes).
    ///
    /// When all hold it deletes the action and answers ``EmailActionCompletion/completed(account:)``
    /// with the account as updated (`nil` without `changes`). Of concurrent calls for one action,
    /// at most one completes.
    func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?, accountID: String?) async throws -> EmailActionCompletion
}

extension EmailActionStore {
    /// Uses the action with `digest`, its `changes` going to the action's own account
    /// (``completeEmailAction(digest:at:changes:accountID:)``).
    public func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?) async throws -> EmailActionCompletion {
        try await completeEmailAction(digest: digest, at: time, changes: changes, accountID: nil)
    }
}
