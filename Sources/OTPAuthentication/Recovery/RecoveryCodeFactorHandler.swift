/// Recovery codes: a set of single-use codes that stands for the account rather than for a device
/// (``RecoveryCodeMultiFactorGenerator``). They are generated, not enrolled, and neither listed
/// nor shown as hints, as Firebase, which has no such factor, would not expect them there.
struct RecoveryCodeFactorHandler: FactorHandler {
    var kind: FactorKind { .recoveryCode }

    func appendHints(among factors: SignInFactors, to hints: inout [MultiFactorInfo]) {}

    func enrolledFactors(userID: String, in service: MultiFactorService) async throws(AuthError) -> [MultiFactorInfo] { [] }

    func removeFactor(_ enrollmentID: String, userID: String, in service: MultiFactorService) async throws(AuthError) -> Bool { false }

    func renameFactor(_ enrollmentID: String, userID: String, to displayName: String?, in service: MultiFactorService) async throws(AuthError) -> Bool
    {
        false
    }
}

extension RecoveryCodeMultiFactorAssertion: VerifiableAssertion {
    func enroll(_ user: User, displayName: String?) async throws(AuthError) {
        throw AuthError(
            .operationNotAllowed,
            "recovery codes are not enrolled: generate a set with RecoveryCodeMultiFactorGenerator.generateCodes(with:) and keep them")
    }

    func resolveSignIn(_ resolver: MultiFactorResolver) async throws(AuthError) -> AuthDataResult {
        try await resolver.service.finalizeRecoverySignIn(resolver, code: code)
    }
}
