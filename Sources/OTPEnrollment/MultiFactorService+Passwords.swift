extension MultiFactorService {
    /// Creates an account with an email address and password and signs it in (Firebase's
    /// `createUser(withEmail:password:)`).
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/weakPassword``
    ///   (shorter than ``PasswordSettings/minimumLength``), or ``AuthErrorCode/emailAlreadyInUse``
    ///   — decided by the store, so of concurrent creations with one address exactly one succeeds.
    public func createUser(withEmail email: String, password: String) async throws(AuthError) -> User {
        guard let address = EmailAddress.normalized(email) else { throw invalidEmail() }
        let settings = configuration.passwords
        guard password.count >= settings.minimumLength else {
            throw AuthError(.weakPassword, "the password must have at least \(settings.minimumLength) characters")
        }
        let hash: String
        do {
            hash = try PasswordHasher(parameters: settings.hashParameters).hash(password)
        } catch {
            throw AuthError(.internalError, "the server could not hash the password: try again later", underlyingError: error)
        }
        let now = clock.now()
        let account = AccountRecord(id: try newID(), email: address, createdAt: now, lastSignInAt: now, passwordHash: hash)
        switch try await storeCall("creating an account", { try await store.insertAccount(account) }) {
        case .inserted: break
        case .emailAlreadyInUse: throw AuthError(.emailAlreadyInUse, "another account has this email address: sign in instead")
        case .idAlreadyInUse, .identityInUse: throw AuthError(.internalError, "the server made an account id already in use: try again")
        }
        logger.info("account created", metadata: ["user": "\(account.id)"])
        return try await signIn(FirstFactorIdentity(userID: account.id, email: address, isEmailVerified: false, provider: .password))
    }

    /// Signs in with an email address and password (Firebase's `signIn(withEmail:password:)`).
    ///
    /// An unknown address costs the same hashing work as a wrong password. After
    /// ``MultiFactorConfiguration/maximumConsecutiveFailures`` wrong passwords in a row the
    /// account refuses passwords for ``MultiFactorConfiguration/lockoutDuration`` seconds. A hash
    /// made at older parameters is replaced on success.
    ///
    /// - Returns: The signed-in user, when the account has no second factor.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/secondFactorRequired`` and a resolver when the
    ///   account has second factors (as ``signIn(_:)``); ``AuthErrorCode/invalidCredential`` for a
    ///   wrong password or an unknown address under ``PasswordSettings/emailEnumerationProtection``
    ///   (else ``AuthErrorCode/wrongPassword`` and ``AuthErrorCode/userNotFound``);
    ///   ``AuthErrorCode/userDisabled``; ``AuthErrorCode/tooManyRequests`` while locked;
    ///   ``AuthErrorCode/invalidEmail``.
    public func signIn(withEmail email: String, password: String) async throws(AuthError) -> User {
        guard let address = EmailAddress.normalized(email) else { throw invalidEmail() }
        let settings = configuration.passwords
        let hasher = PasswordHasher(parameters: settings.hashParameters)
        let found = try await storeCall("reading an account") { try await store.account(email: address) }
        guard let account = found, let hash = account.passwordHash else {
            hasher.verifyWithoutAccount(password)
            throw settings.emailEnumerationProtection
                ? invalidCredential() : AuthError(.userNotFound, "no account has this email address")
        }
        let now = clock.now()
        let failureKey = "password:" + account.id
        let failures = try await storeCall("reading password failures") { try await store.failureCounter(key: failureKey) }
        if let until = failures.lockEnd(at: now) {
            throw AuthError(.tooManyRequests, "too many wrong passwords for this account: try again in \(until - now) seconds")
        }
        let rehash: String?
        let verification = hasher.verify(password, against: hash)
        switch verification {
        case .matches(let needsRehash):
            rehash = needsRehash ? try? hasher.hash(password) : nil
        case .doesNotMatch, .unusableHash:
            if verification == .unusableHash {
                logger.error("unusable password hash", metadata: ["user": "\(account.id)"])
            }
            let limit = configuration.maximumConsecutiveFailures
            let lockout = configuration.lockoutDuration
            _ = try await storeCall("recording a wrong password") {
                try await store.recordFailure(key: failureKey, at: now, limit: limit, lockout: lockout)
            }
            throw settings.emailEnumerationProtection ? invalidCredential() : AuthError(.wrongPassword, "the password is wrong")
        }
        // Only after the password: whether an account is disabled is for its owner to learn.
        guard !account.isDisabled else { throw AuthError(.userDisabled, "this account is disabled") }
        if failures != .zero {
            try await storeCall("clearing password failures") { try await store.resetFailures(key: failureKey) }
        }
        try await storeCall("recording a sign-in") { try await store.recordAccountSignIn(id: account.id, at: now, passwordHash: rehash) }
        return try await signIn(
            FirstFactorIdentity(userID: account.id, email: account.email, isEmailVerified: account.isEmailVerified, provider: .password))
    }

    /// Creates an anonymous account and signs it in (Firebase's `signInAnonymously()`): an account
    /// with no email address, password or provider identity, which linking a credential later
    /// upgrades in place. Anonymous users cannot enroll second factors.
    public func signInAnonymously() async throws(AuthError) -> User {
        let now = clock.now()
        let account = AccountRecord(id: try newID(), email: nil, createdAt: now, lastSignInAt: now)
        switch try await storeCall("creating an anonymous account", { try await store.insertAccount(account) }) {
        case .inserted: break
        case .emailAlreadyInUse, .idAlreadyInUse, .identityInUse:
            throw AuthError(.internalError, "the server made an account id already in use: try again")
        }
        return try await signIn(FirstFactorIdentity(userID: account.id, email: nil, isEmailVerified: false, provider: .anonymous))
    }

    private func invalidEmail() -> AuthError {
        AuthError(.invalidEmail, "the email address is malformed: give one such as name@example.com")
    }

    private func invalidCredential() -> AuthError {
        AuthError(.invalidCredential, "the email address or the password is wrong")
    }
}
