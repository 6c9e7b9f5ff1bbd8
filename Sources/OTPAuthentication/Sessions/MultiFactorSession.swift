/// What ties a multi-factor operation to a signed-in user (for enrollment) or to a first factor
/// that passed (for sign-in).
public struct MultiFactorSession: Sendable {
    enum Kind: Sendable {
        case user(User)
        case signIn(credential: PendingSignInRecord, service: MultiFactorService)
    }

    let kind: Kind

    /// Whether this session belongs to a sign-in in progress (a ``MultiFactorResolver``'s), which
    /// cannot start an enrollment.
    public var isSignInSession: Bool {
        if case .signIn = kind { true } else { false }
    }
}
