/// A pending credential whose MAC a service of the store checked
/// (``MultiFactorService/authenticate(pendingCredential:)``): the sign-in it names, for a server
/// that throttles per account before it takes the sign-in up again with
/// ``MultiFactorService/resolver(for:)``, which then needs no second check.
///
/// Only a service makes one, and only of a credential a service of the same store issued; it says
/// nothing of whether the sign-in completed or expired since.
public struct AuthenticatedPendingCredential: Sendable, Hashable {
    /// The pending sign-in the credential carries.
    let record: PendingSignInRecord
    /// The credential as the client sent it, which the resolver hands out again.
    let credential: String

    /// The user whose sign-in it is.
    public var userID: String { record.userID }
}
