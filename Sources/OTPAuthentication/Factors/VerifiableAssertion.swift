/// An assertion of a kind the service verifies: each kind's says how it finishes an enrollment and
/// a sign-in, so that ``MultiFactor/enroll(with:displayName:)`` and
/// ``MultiFactorResolver/resolveSignIn(with:)-(MultiFactorAssertion)`` hold no list of kinds.
protocol VerifiableAssertion: MultiFactorAssertion {
    /// Finishes an enrollment of `user`'s with this proof, naming the factor `displayName`.
    func enroll(_ user: User, displayName: String?) async throws(AuthError)

    /// Completes the sign-in of `resolver` with this proof.
    func resolveSignIn(_ resolver: MultiFactorResolver) async throws(AuthError) -> AuthDataResult
}
