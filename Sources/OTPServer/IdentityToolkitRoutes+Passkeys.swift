internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// Firebase's passkey endpoints (`../shared/PASSKEYS.md` A.2), beside the multi-factor ones at
    /// both v2 path schemes.
    func addPasskeyRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        func endpoint(_ name: String, _ handler: @escaping ClientHandler) { v2(router, name, handler) }
        endpoint("passkeyEnrollment:start") { body, _ throws(IdentityToolkitError) in try await routes.startPasskeyEnrollment(body) }
        endpoint("passkeyEnrollment:finalize") { body, source throws(IdentityToolkitError) in
            try await routes.finalizePasskeyEnrollment(body, source: source)
        }
        endpoint("passkeySignIn:start") { body, source throws(IdentityToolkitError) in try await routes.startPasskeySignIn(body, source: source) }
        endpoint("passkeySignIn:finalize") { body, source throws(IdentityToolkitError) in
            try await routes.finalizePasskeySignIn(body, source: source)
        }
    }

    /// `passkeyEnrollment:start`: creation options for the ID token's user.
    func startPasskeyEnrollment(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.PasskeyEnrollmentStartResponse {
        let request = try body.decode(Wire.PasskeyEnrollmentStartRequest.self)
        try Self.refuseTenant(request.tenantId)
        let (user, _) = try await tokenUser(request.idToken)
        let options = try await call { () async throws(AuthError) in try await user.startPasskeyEnrollment() }
        return Wire.PasskeyEnrollmentStartResponse(credentialCreationOptions: Wire.CreationOptions(options))
    }

    /// `passkeyEnrollment:finalize`: registers the passkey and answers the user's tokens (JS
    /// builds a linking credential of them). Counts against the client address's verification limit.
    func finalizePasskeyEnrollment(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.PasskeyTokensResponse {
        let request = try body.decode(Wire.PasskeyEnrollmentFinalizeRequest.self)
        try Self.refuseTenant(request.tenantId)
        try await throttle.admit(.verification, address: source)
        let (user, _) = try await tokenUser(request.idToken)
        let response = try Wire.registration(request.authenticatorRegistrationResponse)
        let name = [request.name, request.displayName].compactMap { $0 }.first { !$0.isEmpty }
        _ = try await call { () async throws(AuthError) in try await user.finalizePasskeyEnrollment(response, name: name) }
        return Wire.PasskeyTokensResponse(
            localId: user.uid, idToken: try await idToken(for: user), refreshToken: try refreshToken(for: user), expiresIn: String(tokens.lifetime))
    }

    /// `passkeySignIn:start`: request options naming no user. Counts against the client
    /// address's sign-in limit, as each stores a challenge.
    func startPasskeySignIn(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.PasskeySignInStartResponse {
        let request = try body.decode(Wire.PasskeySignInStartRequest.self)
        try Self.refuseTenant(request.tenantId)
        try await throttle.admit(.signIn, address: source)
        let options = try await call { () async throws(AuthError) in try await service.startPasskeySignIn() }
        return Wire.PasskeySignInStartResponse(credentialRequestOptions: Wire.RequestOptions(options))
    }

    /// `passkeySignIn:finalize`: signs in the passkey's user; the ID token's `sign_in_provider` is
    /// `passkey`. Counts against the client address's sign-in limit.
    func finalizePasskeySignIn(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.PasskeyTokensResponse {
        let request = try body.decode(Wire.PasskeySignInFinalizeRequest.self)
        try Self.refuseTenant(request.tenantId)
        try await throttle.admit(.signIn, address: source)
        let response = try Wire.assertion(request.authenticatorAuthenticationResponse)
        let result = try await call { () async throws(AuthError) in try await service.finalizePasskeySignIn(response) }
        return Wire.PasskeyTokensResponse(
            localId: result.user.uid, idToken: try await idToken(for: result.user), refreshToken: try refreshToken(for: result.user),
            expiresIn: String(tokens.lifetime))
    }

    static func refuseTenant(_ tenantId: String?) throws(IdentityToolkitError) {
        if let tenantId, !tenantId.isEmpty {
            throw IdentityToolkitError("TENANT_ID_MISMATCH", "this server has no tenants: send no tenantId")
        }
    }
}
