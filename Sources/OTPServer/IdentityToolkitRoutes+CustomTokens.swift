internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `accounts:signInWithCustomToken` (iOS `verifyCustomToken`): signs in the user a custom token
    /// names, creating the account when there is none (`isNewUser`), without a second factor, as
    /// Firebase does; the ID token's `sign_in_provider` is `custom`. The attempt counts against the
    /// client address's sign-in limit before the token is read.
    func signInWithCustomToken(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.CustomTokenSignInResponse {
        let request = try body.decode(Wire.CustomTokenSignInRequest.self)
        try Self.refuseTenant(request.tenantId)
        guard let customTokens else {
            throw IdentityToolkitError(
                "OPERATION_NOT_ALLOWED",
                "this server accepts no custom tokens: start otpkit-server with --custom-token-signer EMAIL=CERTIFICATES_FILE")
        }
        try await throttle.admit(.signIn, address: source)
        let token: VerifiedCustomToken
        do {
            token = try await customTokens.verify(request.token ?? "")
        } catch {
            switch error {
            case .missing: throw IdentityToolkitError("MISSING_CUSTOM_TOKEN", error.description)
            case .rejected(let reason): throw IdentityToolkitError("INVALID_CUSTOM_TOKEN", reason)
            case .invalidClaims(let code, let message): throw IdentityToolkitError(code, message)
            }
        }
        let result = try await call { () async throws(AuthError) in
            try await service.signIn(customTokenUID: token.uid, sessionClaims: token.developerClaims)
        }
        return Wire.CustomTokenSignInResponse(
            idToken: try await idToken(for: result.user), refreshToken: try refreshToken(for: result.user), expiresIn: String(tokens.lifetime),
            isNewUser: result.isNewUser)
    }
}
