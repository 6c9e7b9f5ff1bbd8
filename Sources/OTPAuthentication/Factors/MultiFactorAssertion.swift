/// Proof of a second factor, passed to ``MultiFactor/enroll(with:displayName:)`` or
/// ``MultiFactorResolver/resolveSignIn(with:)-(MultiFactorAssertion)``.
public protocol MultiFactorAssertion: Sendable {
    /// The factor kind, such as ``TOTPMultiFactorID``.
    var factorID: String { get }
}
