/// Phone factors: a number codes are sent to by text message (``PhoneMultiFactorGenerator``).
struct PhoneFactorHandler: FactorHandler {
    var kind: FactorKind { .phone }

    func appendHints(among factors: SignInFactors, to hints: inout [MultiFactorInfo]) {
        for factor in factors.phone {
            hints.append(MultiFactorInfo(factor, masked: true))
        }
    }

    func enrolledFactors(userID: String, in service: MultiFactorService) async throws(AuthError) -> [MultiFactorInfo] {
        try await service.storeCall("listing phone factors") { try await service.store.phoneFactors(userID: userID) }
            .map { MultiFactorInfo($0, masked: false) }
    }

    func removeFactor(_ enrollmentID: String, userID: String, in service: MultiFactorService) async throws(AuthError) -> Bool {
        try await service.storeCall("removing the factor") { try await service.store.removePhoneFactor(id: enrollmentID, userID: userID) } != nil
    }

    func renameFactor(_ enrollmentID: String, userID: String, to displayName: String?, in service: MultiFactorService) async throws(AuthError) -> Bool
    {
        try await service.storeCall("renaming the factor") {
            try await service.store.renamePhoneFactor(id: enrollmentID, userID: userID, displayName: displayName)
        }
    }
}

extension PhoneMultiFactorAssertion: VerifiableAssertion {
    func enroll(_ user: User, displayName: String?) async throws(AuthError) {
        try await user.service.finalizePhoneEnrollment(user, credential: credential, displayName: displayName)
    }

    func resolveSignIn(_ resolver: MultiFactorResolver) async throws(AuthError) -> AuthDataResult {
        try await resolver.service.finalizePhoneSignIn(resolver, credential: credential)
    }
}
