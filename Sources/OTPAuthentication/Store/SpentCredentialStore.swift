/// The pending sign-ins that completed, kept until they expire, so that each completes once.
///
/// A requirement of ``AuthStore``.
public protocol SpentCredentialStore: Sendable {
    // A pending sign-in is not stored when it starts: its credential carries it, authenticated by
    // the service (``PendingSignInRecord``). A store keeps the ids of the pending sign-ins that
    // completed, until they expire, so that each completes once.

    /// Whether the pending sign-in `credential` was spent (it completed a sign-in). A store may
    /// find it by its id and expiry together: the record comes from an authenticated credential.
    func isPendingSignInSpent(_ credential: PendingSignInRecord) async throws -> Bool

    /// Atomically marks `credential` spent until its ``PendingSignInRecord/expiresAt``: `true`
    /// when this call spent it, `false` when it was spent already. Of concurrent calls, exactly
    /// one gets `true`.
    func spendPendingSignIn(_ credential: PendingSignInRecord) async throws -> Bool
}
