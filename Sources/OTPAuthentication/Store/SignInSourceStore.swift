/// Where each account signed in from before: what lets its owner sign in with a password while
/// strangers keep its address locked.
///
/// A requirement of ``AuthStore``, kept to its own protocol because it is its own concern: a
/// source is known to an account until the moment its last sign-in from there set, and
/// ``AuthStore/purgeExpired(before:failuresCountedBefore:)`` forgets it after.
public protocol SignInSourceStore: Sendable {
    /// Records that `accountID` signed in from `source` (a client's address), which stays known
    /// until `until`; a later record moves the moment, an earlier one does not shorten it.
    func recordSignInSource(_ source: String, accountID: String, until: Int64) async throws

    /// Whether `accountID` signed in from `source` and that is still known at `time`.
    func isKnownSignInSource(_ source: String, accountID: String, at time: Int64) async throws -> Bool
}
