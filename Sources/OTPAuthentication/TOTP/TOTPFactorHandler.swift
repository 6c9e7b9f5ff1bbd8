/// TOTP factors: a secret shared with the user's authenticator app (``TOTPMultiFactorGenerator``).
struct TOTPFactorHandler: FactorHandler {
    var kind: FactorKind { .totp }

    func appendHints(among factors: SignInFactors, to hints: inout [MultiFactorInfo]) {
        for factor in factors.totp {
            hints.append(MultiFactorInfo(factor))
        }
    }

    func enrolledFactors(userID: String, in service: MultiFactorService) async throws(AuthError) -> [MultiFactorInfo] {
        try await service.storeCall("listing factors") { try await service.store.factors(userID: userID) }.map(MultiFactorInfo.init)
    }

    func removeFactor(_ enrollmentID: String, userID: String, in service: MultiFactorService) async throws(AuthError) -> Bool {
        let removed = try await service.storeCall("removing the factor") { try await service.store.removeFactor(id: enrollmentID, userID: userID) }
        guard removed != nil else { return false }
        service.forgetVerifier(enrollmentID)
        return true
    }

    func renameFactor(_ enrollmentID: String, userID: String, to displayName: String?, in service: MultiFactorService) async throws(AuthError) -> Bool
    {
        try await service.storeCall("renaming the factor") {
            try await service.store.renameFactor(id: enrollmentID, userID: userID, displayName: displayName)
        }
    }
}

extension TOTPMultiFactorAssertion: VerifiableAssertion {
    func enroll(_ user: User, displayName: String?) async throws(AuthError) {
        switch purpose {
        case .enrollment(let secret):
            try await user.service.finalizeTOTPEnrollment(
                user, pendingID: secret.sessionInfo, deadline: secret.enrollmentCompletionDeadlineTime, code: oneTimePassword,
                displayName: displayName)
        case .enrollmentSession(let sessionInfo):
            guard !sessionInfo.isEmpty else {
                throw AuthError(.missingVerificationID, "no session info given: pass the sessionInfo the enrollment's start returned")
            }
            try await user.service.finalizeTOTPEnrollment(
                user, pendingID: sessionInfo, deadline: nil, code: oneTimePassword, displayName: displayName)
        case .signIn:
            throw AuthError(
                .missingVerificationID,
                "a sign-in assertion cannot enroll a factor: use TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:) with the secret from generateSecret(with:)"
            )
        }
    }

    func resolveSignIn(_ resolver: MultiFactorResolver) async throws(AuthError) -> AuthDataResult {
        guard case .signIn(let enrollmentID) = purpose else {
            throw AuthError(
                .missingMultiFactorInfo,
                "an enrollment assertion cannot complete a sign-in: use TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:) with one of the resolver's hints"
            )
        }
        return try await resolver.service.finalizeTOTPSignIn(resolver, enrollmentID: enrollmentID, code: oneTimePassword)
    }
}
