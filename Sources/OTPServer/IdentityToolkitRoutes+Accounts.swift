internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// `accounts:signUp` (iOS `signupNewUser`): an email and password account, or an anonymous one
    /// for an empty body; signed in at once, with an ID token. A new account counts against the
    /// sign-up limit of the client's address `source`, once the request is known to be well formed
    /// and before anything is written.
    func signUp(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.SignUpResponse {
        let request = try body.decode(Wire.SignUpRequest.self)
        let email = request.email.flatMap { $0.isEmpty ? nil : $0 }
        let password = request.password.flatMap { $0.isEmpty ? nil : $0 }
        if let idToken = request.idToken, !idToken.isEmpty {
            return try await linkPassword(idToken: idToken, email: email, password: password, source: source)
        }
        let user: User
        switch (email, password) {
        case (nil, nil):
            try await throttle.admit(.signUp, address: source)
            user = try await call { () async throws(AuthError) in try await service.signInAnonymously() }
        case (.some, nil):
            throw IdentityToolkitError("MISSING_PASSWORD", "give a password with the email address")
        case (nil, .some):
            throw IdentityToolkitError("MISSING_EMAIL", "give an email address with the password")
        case (.some(let email), .some(let password)):
            try await throttle.admit(.signUp, address: source)
            user = try await call { () async throws(AuthError) in try await service.createUser(withEmail: email, password: password) }
        }
        let token = try await idToken(for: user)
        return Wire.SignUpResponse(
            localId: user.uid, email: user.email, idToken: token, refreshToken: try refreshToken(for: user), expiresIn: String(tokens.lifetime))
    }

    /// `accounts:signUp` with the user's `idToken` (B.2, B.5): links an email address and password
    /// to that user, who keeps the uid (an anonymous user so becomes a password user) and continues
    /// in a new session, whose tokens the answer carries (iOS stops without them). A new password
    /// counts against the password-change limits of the address and the user.
    private func linkPassword(idToken: String, email: String?, password: String?, source: String?) async throws(IdentityToolkitError)
        -> Wire.SignUpResponse
    {
        guard let email else { throw IdentityToolkitError("MISSING_EMAIL", "give the email address to link with the password") }
        guard let password else { throw IdentityToolkitError("MISSING_PASSWORD", "give the password to link with the email address") }
        let (user, _) = try await tokenUser(idToken)
        try await admitPasswordChange(of: user, source: source)
        let linked = try await call { () async throws(AuthError) in
            try await user.link(with: EmailAuthProvider.credential(withEmail: email, password: password)).user
        }
        return Wire.SignUpResponse(
            localId: linked.uid, email: linked.email, idToken: try await self.idToken(for: linked), refreshToken: try refreshToken(for: linked),
            expiresIn: String(tokens.lifetime))
    }

    /// `accounts:signInWithPassword` (iOS `verifyPassword`), with the emulator's order of checks:
    /// `MISSING_EMAIL`, `INVALID_EMAIL`, `MISSING_PASSWORD`, then the password. A user with second
    /// factors gets no tokens but a pending credential and the factors as hints (phone numbers
    /// masked), for `mfaSignIn:finalize`.
    func signInWithPassword(_ body: JSONBody, source: String?) async throws(IdentityToolkitError) -> Wire.SignInWithPasswordResponse {
        let request = try body.decode(Wire.SignInWithPasswordRequest.self)
        guard let email = request.email, !email.isEmpty else { throw IdentityToolkitError("MISSING_EMAIL", "give the account's email address") }
        guard let address = EmailAddress.normalized(email) else {
            throw IdentityToolkitError("INVALID_EMAIL", "the email address is malformed: give one such as name@example.com")
        }
        guard let password = request.password, !password.isEmpty else { throw IdentityToolkitError("MISSING_PASSWORD", "give the password") }
        try await throttle.admit(.signIn, address: source)
        try await throttle.admit(.signIn, account: address)
        let user: User
        do {
            user = try await service.signIn(withEmail: email, password: password, source: source)
        } catch {
            guard error.code == .secondFactorRequired, let resolver = error.resolver else { throw IdentityToolkitError(error) }
            let (credential, hints) = multiFactorChallenge(resolver)
            return Wire.SignInWithPasswordResponse(
                localId: resolver.uid, email: address, mfaPendingCredential: credential, mfaInfo: hints)
        }
        let token = try await idToken(for: user)
        return Wire.SignInWithPasswordResponse(
            localId: user.uid, email: user.email, idToken: token, refreshToken: try refreshToken(for: user), expiresIn: String(tokens.lifetime))
    }

    /// `accounts:lookup` (iOS `getAccountInfo`) with the user's ID token: that user, exactly one,
    /// with its second factors in `mfaInfo` (numbers whole, for their owner); `TOKEN_EXPIRED` for a
    /// token issued before the user's tokens were revoked.
    func lookup(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.LookupResponse {
        let request = try body.decode(Wire.LookupRequest.self)
        guard let idToken = request.idToken, !idToken.isEmpty else { throw IdentityToolkitError("MISSING_ID_TOKEN", "give the user's ID token") }
        let claims = try await verified(idToken)
        guard let details = try await call({ () async throws(AuthError) in try await service.administration.accountDetails(id: claims.subject) })
        else {
            throw IdentityToolkitError("USER_NOT_FOUND", "the ID token's user no longer exists")
        }
        guard !details.account.isDisabled else { throw IdentityToolkitError("USER_DISABLED", "this account is disabled") }
        // An administrator revoked the user's tokens after this one was issued.
        if let validSince = details.account.tokensValidAfter, claims.issuedAt < validSince {
            throw IdentityToolkitError("TOKEN_EXPIRED", "the user's tokens were revoked: sign in again")
        }
        return Wire.LookupResponse(users: [try await wireUser(details)])
    }

    // MARK: Shared steps

    /// Counts a new password of `user` from `source` against the password-change limits: each
    /// costs a password hash.
    func admitPasswordChange(of user: User, source: String?) async throws(IdentityToolkitError) {
        try await throttle.admit(.passwordChange, address: source)
        try await throttle.admit(.passwordChange, account: user.uid)
    }

    /// The claims of a token a client sent: `INVALID_ID_TOKEN` for anything this server did not
    /// sign for this project, `TOKEN_EXPIRED` after its `exp`.
    func verified(_ idToken: String) async throws(IdentityToolkitError) -> IDTokenClaims {
        do {
            return try await tokens.verify(idToken)
        } catch IDTokenError.expired {
            throw IdentityToolkitError("TOKEN_EXPIRED", IDTokenError.expired.description)
        } catch {
            throw IdentityToolkitError("INVALID_ID_TOKEN", error.description)
        }
    }

    func idToken(for user: User) async throws(IdentityToolkitError) -> String {
        // auth_time is when the user proved who they are, kept across refreshes and the sessions
        // that continue another, as Firebase keeps it: never the time of this token.
        try await signed(tokens.claims(for: user, authTime: user.authenticatedAt))
    }

    func signed(_ claims: IDTokenClaims) async throws(IdentityToolkitError) -> String {
        do {
            return try await tokens.sign(claims)
        } catch {
            throw IdentityToolkitError(status: .internalServerError, "INTERNAL_ERROR", error.description)
        }
    }

    /// Runs a service call, its refusal as Identity Toolkit's error.
    func call<Result>(_ body: () async throws(AuthError) -> Result) async throws(IdentityToolkitError) -> Result {
        do {
            return try await body()
        } catch {
            throw IdentityToolkitError(error)
        }
    }
}
