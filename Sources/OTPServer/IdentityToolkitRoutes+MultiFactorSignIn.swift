internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `mfaSignIn:start`: sends a code to the phone factor `mfaEnrollmentId` of the pending sign-in,
    /// at the number it was enrolled with (iOS sends the masked hint as `phoneSignInInfo.phoneNumber`,
    /// which is ignored). The text message counts against the client address's limit before it is
    /// asked for.
    func startMultiFactorSignIn(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.SignInStartResponse {
        let request = try body.decode(Wire.SignInStartRequest.self)
        guard let pending = request.mfaPendingCredential, !pending.isEmpty else {
            throw IdentityToolkitError("MISSING_MFA_PENDING_CREDENTIAL", "Request does not have MFA pending credential.")
        }
        guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
            throw IdentityToolkitError("MISSING_MFA_ENROLLMENT_ID", "No second factor identifier is provided.")
        }
        let resolver = try await resolver(pending)
        guard let hint = resolver.hints.first(where: { $0.uid == enrollmentID }) else {
            throw IdentityToolkitError("MFA_ENROLLMENT_NOT_FOUND", "the user has no second factor with this mfaEnrollmentId")
        }
        switch hint.kind {
        case .phone: break
        case .webauthn:
            let options = try await call { () async throws(AuthError) in
                try await WebAuthnMultiFactorGenerator.requestOptions(for: resolver, enrollmentID: enrollmentID)
            }
            return Wire.SignInStartResponse(webauthnResponseInfo: .init(credentialRequestOptions: Wire.RequestOptions(options)))
        case .totp:
            throw IdentityToolkitError("INVALID_ARGUMENT", "MFA provider not supported! (a TOTP factor needs no start: finalize with its code)")
        case .recoveryCode, nil:
            throw IdentityToolkitError("INVALID_ARGUMENT", "MFA provider not supported!")
        }
        try await throttle.admit(.codeSend, address: source)
        let sessionInfo = try await sendingCode { () async throws(IdentityToolkitError) in
            try await call { () async throws(AuthError) in
                try await PhoneAuthProvider.provider().verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            }
        }
        return Wire.SignInStartResponse(phoneResponseInfo: .init(sessionInfo: sessionInfo))
    }

    /// `mfaSignIn:finalize`: completes the pending sign-in with a TOTP code (`mfaEnrollmentId` at
    /// the top level as the SDKs send it, or inside `totpVerificationInfo`), a phone code (no
    /// enrollment id: the session info is bound to the factor) or, OTPKit's own addition, one of
    /// the user's recovery codes (`recoveryCodeVerificationInfo: {code}`). The pending credential is spent;
    /// the ID token carries `sign_in_second_factor` and `second_factor_identifier`. The code counts
    /// against the client address's and the user's limits before it is checked.
    func finalizeMultiFactorSignIn(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.TokensResponse {
        let request = try body.decode(Wire.SignInFinalizeRequest.self)
        guard let pending = request.mfaPendingCredential, !pending.isEmpty else {
            throw IdentityToolkitError("MISSING_CREDENTIAL", "Please set MFA Pending Credential.")
        }
        let assertion: any MultiFactorAssertion
        switch (request.totpVerificationInfo, request.phoneVerificationInfo, request.recoveryCodeVerificationInfo, request.webauthnVerificationInfo) {
        case (.some(let totp), nil, nil, nil):
            guard let enrollmentID = request.mfaEnrollmentId ?? totp.mfaEnrollmentId, !enrollmentID.isEmpty else {
                throw IdentityToolkitError("MISSING_MFA_ENROLLMENT_ID", "No second factor identifier is provided.")
            }
            assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: enrollmentID, oneTimePassword: totp.verificationCode ?? "")
        case (nil, .some(let phone), nil, nil):
            assertion = PhoneMultiFactorGenerator.assertion(with: Self.phoneCredential(phone))
        case (nil, nil, .some(let recovery), nil):
            assertion = RecoveryCodeMultiFactorGenerator.assertion(withCode: recovery.code ?? "")
        case (nil, nil, nil, .some(let webauthn)):
            guard let enrollmentID = request.mfaEnrollmentId, !enrollmentID.isEmpty else {
                throw IdentityToolkitError("MISSING_MFA_ENROLLMENT_ID", "No second factor identifier is provided.")
            }
            assertion = WebAuthnMultiFactorGenerator.assertionForSignIn(
                withEnrollmentID: enrollmentID, response: try Wire.assertion(webauthn.authenticatorAuthenticationResponse))
        default:
            throw IdentityToolkitError(
                "INVALID_ARGUMENT",
                "give exactly one of phoneVerificationInfo, totpVerificationInfo, recoveryCodeVerificationInfo and webauthnVerificationInfo")
        }
        try await throttle.admit(.verification, address: source)
        guard let authenticated = service.authenticate(pendingCredential: pending) else { throw invalidPendingCredential() }
        try await throttle.admit(.verification, account: authenticated.userID)
        let resolver = try await resolver(authenticated)
        let result: AuthDataResult
        do {
            result = try await call { () async throws(AuthError) in try await resolver.resolveSignIn(with: assertion) }
        } catch {
            // A server failure decided nothing about the code.
            if error.status.code < 500 { metrics.verified(.signIn, accepted: false) }
            throw error
        }
        metrics.verified(.signIn, accepted: true)
        if let sessionInfo = request.phoneVerificationInfo?.sessionInfo { verificationCodes?.remove(sessionInfo: sessionInfo) }
        return Wire.TokensResponse(idToken: try await idToken(for: result.user), refreshToken: try refreshToken(for: result.user))
    }

    /// The resolver a pending credential names: `INVALID_MFA_PENDING_CREDENTIAL` for one this server
    /// did not make, and for one used, expired or of a deleted account.
    func resolver(_ pendingCredential: String) async throws(IdentityToolkitError) -> MultiFactorResolver {
        guard let authenticated = service.authenticate(pendingCredential: pendingCredential) else { throw invalidPendingCredential() }
        return try await resolver(authenticated)
    }

    func resolver(_ authenticated: AuthenticatedPendingCredential) async throws(IdentityToolkitError) -> MultiFactorResolver {
        try await call { () async throws(AuthError) in try await service.resolver(for: authenticated) }
    }

    func invalidPendingCredential() -> IdentityToolkitError {
        IdentityToolkitError("INVALID_MFA_PENDING_CREDENTIAL", "the MFA pending credential is not one this server issued: sign in again")
    }

    /// What a first factor answers when the account has second factors, whichever the first
    /// factor was: the pending credential and the hints (phone numbers masked), instead of tokens.
    /// The pending credential is the service's, which carries the sign-in under a MAC of the
    /// store's keys.
    func multiFactorChallenge(_ resolver: MultiFactorResolver) -> (String, [WireMultiFactorInfo]) {
        (resolver.pendingCredential, resolver.hints.compactMap(WireMultiFactorInfo.init))
    }
}
