/// Passkey second factors (``WebAuthnMultiFactorGenerator``): kept with the passkeys that sign in
/// alone, told apart by their enrollment id.
struct WebAuthnFactorHandler: FactorHandler {
    var kind: FactorKind { .webauthn }

    func appendHints(among factors: SignInFactors, to hints: inout [MultiFactorInfo]) {
        hints += factors.passkeys.map(MultiFactorInfo.init)
    }

    func enrolledFactors(userID: String, in service: MultiFactorService) async throws(AuthError) -> [MultiFactorInfo] {
        try await service.passkeyFactors(userID: userID).map(MultiFactorInfo.init)
    }

    func removeFactor(_ enrollmentID: String, userID: String, in service: MultiFactorService) async throws(AuthError) -> Bool {
        guard let passkey = try await factor(enrollmentID, userID: userID, in: service) else { return false }
        return try await service.storeCall("removing the factor") {
            try await service.store.removePasskey(credentialID: passkey.credentialID, userID: userID)
        }
    }

    /// A passkey keeps no absent name: no name is the empty one.
    func renameFactor(_ enrollmentID: String, userID: String, to displayName: String?, in service: MultiFactorService) async throws(AuthError) -> Bool
    {
        guard let passkey = try await factor(enrollmentID, userID: userID, in: service) else { return false }
        return try await service.storeCall("renaming the factor") {
            try await service.store.renamePasskey(credentialID: passkey.credentialID, userID: userID, name: displayName ?? "")
        }
    }

    private func factor(_ enrollmentID: String, userID: String, in service: MultiFactorService) async throws(AuthError) -> PasskeyRecord? {
        try await service.passkeyFactors(userID: userID).first { $0.enrollmentID == enrollmentID }
    }
}

extension WebAuthnMultiFactorAssertion: VerifiableAssertion {
    func enroll(_ user: User, displayName: String?) async throws(AuthError) {
        guard case .registration(let response) = proof else {
            throw AuthError(
                .missingVerificationID,
                "a sign-in assertion cannot enroll a factor: make one with WebAuthnMultiFactorGenerator.assertionForEnrollment(with:)")
        }
        try await user.service.finalizeWebAuthnEnrollment(user, response: response, displayName: displayName)
    }

    func resolveSignIn(_ resolver: MultiFactorResolver) async throws(AuthError) -> AuthDataResult {
        guard case .assertion(let enrollmentID, let response) = proof else {
            throw AuthError(
                .missingMultiFactorInfo,
                "an enrollment assertion cannot complete a sign-in: make one with WebAuthnMultiFactorGenerator.assertionForSignIn(withEnrollmentID:response:)"
            )
        }
        return try await resolver.service.finalizeWebAuthnSignIn(resolver, enrollmentID: enrollmentID, response: response)
    }
}

extension MultiFactorInfo {
    /// The info of a passkey second factor.
    init(_ passkey: PasskeyRecord) {
        self.init(
            uid: passkey.enrollmentID ?? "", displayName: passkey.name.isEmpty ? nil : passkey.name, enrollmentTime: passkey.createdAt,
            factorID: WebAuthnMultiFactorID)
    }
}
