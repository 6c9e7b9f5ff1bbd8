extension MultiFactorService {
    /// Creates an account with an email address and password and signs it in (Firebase's
    /// `createUser(withEmail:password:)`).
    ///
    /// - Throws: ``AuthError`` with ``AuthErrorCode/invalidEmail``, ``AuthErrorCode/weakPassword``
    ///   (shorter than ``PasswordSettings/minimumLength``), or ``AuthErrorCode/emailAlreadyInUse``
    ///   — decided by the store, so of concurrent creations with one address exactly one succeeds.
    public func createUser(withEmail email: String, password: String) async throws(AuthError) -> User {
        let address = try normalizedEmail(email)
        try checkNewPassword(password)
        // The store decides, but a taken address is refused before the hash's cost.
        if try await storeCall("reading an account", { try await store.account(email: address) }) != nil {
            throw AuthError(.emailAlreadyInUse, "another account has this email address: sign in instead", email: address)
        }
        let hash = try await newPasswordHash(password)
        let now = clock.now()
        let account = AccountRecord(id: try newID(), email: address, createdAt: now, lastSignInAt: now, passwordHash: hash)
        let event = auditEvent(.accountCreated, userID: account.id, provider: EmailAuthProvider.id)
        switch try await storeCall("creating an account", recording: event, { try await store.insertAccount(account) }) {
        case .inserted: break
        case .emailAlreadyInUse:
            throw AuthError(.emailAlreadyInUse, "another account has this email address: sign in instead", email: address)
        case .idAlreadyInUse, .identityInUse:
            throw AuthError(.internalError, "the server made an account id already in use: try again")
        }
        logger.info("account created", metadata: ["user": "\(account.id)"])
        return try await signIn(firstFactorIdentity(account, provider: .password, linked: []))
    }

    /// Signs in with an email address and password (Firebase's `signIn(withEmail:password:)`).
    ///
    /// An unknown address costs the same hashing work as a wrong password. After
    /// ``MultiFactorConfiguration/maximumConsecutiveFailures`` wrong passwords in a row the
    /// address refuses passwords for ``MultiFactorConfiguration/lockoutDuration`` seconds, except
    /// from a source the account signed in from within ``PasswordSettings/knownSourceLifetime``,
    /// whose failures count and lock on their own: strangers can keep an address locked, not its
    /// owner out. After ``PasswordSettings/maximumFailuresPerSource`` failures from one `source`
    /// per ``PasswordSettings/sourceWindow``, that source is refused whatever account it tries. A
    /// hash made at older parameters is replaced on success.
    ///
    /// - Parameters:
    ///   - email: The account's address, in any case and with surrounding spaces.
    ///   - password: The password, as typed.
    ///   - source: Where the request came from (the client's IP address), for the per-source
    ///     limit; `nil` when the host has no such notion.
    /// - Returns: The signed-in user, when the account has no second factor.
    /// - Throws: ``AuthError`` with ``AuthErrorCode/secondFactorRequired`` and a resolver when the
    ///   account has second factors (as ``signIn(_:)``); ``AuthErrorCode/invalidCredential`` for a
    ///   wrong password or an unknown address under ``PasswordSettings/emailEnumerationProtection``
    ///   (else ``AuthErrorCode/wrongPassword`` and ``AuthErrorCode/userNotFound``);
    ///   ``AuthErrorCode/userDisabled``; ``AuthErrorCode/tooManyRequests`` while the account or
    ///   the source is locked; ``AuthErrorCode/invalidEmail``.
    public func signIn(withEmail email: String, password: String, source: String? = nil) async throws(AuthError) -> User {
        let address = try normalizedEmail(email)
        let now = clock.now()
        try await checkSource(source, now: now)
        let settings = configuration.passwords
        let hasher = settings.hasher
        // Failures count per address, known or not, and an unknown address costs the same reads,
        // hash and write as a wrong password: neither the time taken nor a lock tells an attacker
        // which addresses have accounts. A source the account signed in from before counts apart,
        // so that strangers keeping the address locked do not lock out its owner.
        let found = try await storeCall("reading an account") { try await store.account(email: address) }
        let failureKey = try await passwordFailureKey(address: address, accountID: found?.id, source: source, now: now)
        let failures = try await storeCall("reading password failures") { try await store.failureCounter(key: failureKey) }
        if let until = failures.lockEnd(at: now) {
            throw AuthError(.tooManyRequests, "too many wrong passwords for this address: try again in \(until - now) seconds")
        }
        let storedHash = found?.passwordHash
        let verification = try await passwordHashing.run {
            storedHash.map { hasher.verify(password, against: $0) } ?? hasher.verifyWithoutAccount(password)
        }
        guard let account = found, case .matches(let needsRehash) = verification else {
            if verification == .unusableHash {
                logger.error("unusable password hash", metadata: ["user": "\(found?.id ?? "")"])
            }
            let limit = configuration.maximumConsecutiveFailures
            let lockout = configuration.lockoutDuration
            let event = auditEvent(
                .signInFailed, userID: found?.id, actor: .anonymous, provider: EmailAuthProvider.id, reason: "wrong password")
            _ = try await storeCall("recording a wrong password", recording: event) {
                try await store.recordFailure(key: failureKey, at: now, limit: limit, lockout: lockout)
            }
            try await recordSourceFailure(source, now: now)
            guard !settings.emailEnumerationProtection else { throw invalidCredential() }
            throw found?.passwordHash == nil
                ? AuthError(.userNotFound, "no account has this email address") : AuthError(.wrongPassword, "the password is wrong")
        }
        // A busy server keeps the old hash until the next sign-in rather than refuse this one.
        let replacement = needsRehash ? (try? await passwordHashing.run { try? hasher.hash(password) }) ?? nil : nil
        var rehash: PasswordRehash?
        if let verified = account.passwordHash, let replacement { rehash = PasswordRehash(verified: verified, replacement: replacement) }
        // Only after the password: whether an account is disabled is for its owner to learn.
        guard !account.isDisabled else { throw userDisabled() }
        if failures != .zero {
            try await storeCall("clearing password failures") { try await store.resetFailures(key: failureKey) }
        }
        try await storeCall("recording a sign-in") { try await store.recordAccountSignIn(id: account.id, at: now, rehash: rehash) }
        if let source {
            let until = now + settings.knownSourceLifetime
            try await storeCall("recording the sign-in's source") { try await store.recordSignInSource(source, accountID: account.id, until: until) }
        }
        let linked = try await storeCall("reading linked identities") { try await store.providerIdentities(accountID: account.id) }
        return try await signIn(firstFactorIdentity(account, provider: .password, linked: linked))
    }

    /// Creates an anonymous account and signs it in (Firebase's `signInAnonymously()`): an account
    /// with no email address, password or provider identity, which linking a credential later
    /// upgrades in place. Anonymous users cannot enroll second factors.
    public func signInAnonymously() async throws(AuthError) -> User {
        let now = clock.now()
        let account = AccountRecord(id: try newID(), email: nil, createdAt: now, lastSignInAt: now)
        let event = auditEvent(.accountCreated, userID: account.id, provider: FirstFactorProvider.anonymous.rawValue)
        switch try await storeCall("creating an anonymous account", recording: event, { try await store.insertAccount(account) }) {
        case .inserted: break
        case .emailAlreadyInUse, .idAlreadyInUse, .identityInUse:
            throw AuthError(.internalError, "the server made an account id already in use: try again")
        }
        return try await signIn(firstFactorIdentity(account, provider: .anonymous, linked: []))
    }

    // MARK: Shared steps

    /// Who an account is, as a first factor's sign-in hands it on: its identities with the
    /// password synthesized from its address and hash, as Firebase lists it.
    func firstFactorIdentity(_ account: AccountRecord, provider: FirstFactorProvider, linked: [ProviderIdentity]) -> FirstFactorIdentity {
        FirstFactorIdentity(
            userID: account.id, email: account.email, isEmailVerified: account.isEmailVerified, provider: provider,
            providerData: account.providerData(linked: linked), customAttributes: account.customAttributes)
    }

    func normalizedEmail(_ email: String) throws(AuthError) -> String {
        guard let address = EmailAddress.normalized(email) else {
            throw AuthError(.invalidEmail, "the email address is malformed: give one such as name@example.com")
        }
        return address
    }

    /// Checks that a new password is long enough: before anything else, so that a weak one costs
    /// no hash.
    func checkNewPassword(_ password: String) throws(AuthError) {
        let minimumLength = configuration.passwords.minimumLength
        guard password.count >= minimumLength else {
            throw AuthError(.weakPassword, "the password must have at least \(minimumLength) characters")
        }
    }

    /// The hash of a new password, after checking that it is long enough, made through
    /// ``passwordHashing``. Callers check whatever could refuse the change first: a hash costs a
    /// fifth of a second of a core.
    func newPasswordHash(_ password: String) async throws(AuthError) -> String {
        try checkNewPassword(password)
        let hasher = configuration.passwords.hasher
        let hashed = try await passwordHashing.run { Result { () throws(PasswordHashError) in try hasher.hash(password) } }
        do {
            return try hashed.get()
        } catch {
            throw AuthError(.internalError, "the server could not hash the password: try again later", underlyingError: error)
        }
    }

    func userDisabled() -> AuthError {
        AuthError(.userDisabled, "this account is disabled")
    }

    private func invalidCredential() -> AuthError {
        AuthError(.invalidCredential, "the email address or the password is wrong")
    }

    /// The key wrong passwords for `address` count under: the address's own, or, from a source
    /// the account signed in from before, the address's and the source's together. An unknown
    /// address reads as much as a known one.
    private func passwordFailureKey(address: String, accountID: String?, source: String?, now: Int64) async throws(AuthError) -> String {
        guard let source else { return "password:" + address }
        let known = try await storeCall("reading the sign-in's source") {
            try await store.isKnownSignInSource(source, accountID: accountID ?? "", at: now)
        }
        return known ? "password-known:" + address + " " + source : "password:" + address
    }

    // The source's failures are counted in a quota (a token bucket every process shares); the
    // failure that finds the bucket full leaves a lock until it has room, which is what the next
    // attempt reads, so a refused source costs one store read and no hashing.
    private func checkSource(_ source: String?, now: Int64) async throws(AuthError) {
        guard let source else { return }
        let counter = try await storeCall("reading the source's lock") { try await store.failureCounter(key: "password-source-lock:" + source) }
        if let until = counter.lockEnd(at: now) {
            throw AuthError(.tooManyRequests, "too many failed sign-ins from this address: try again in \(until - now) seconds")
        }
    }

    private func recordSourceFailure(_ source: String?, now: Int64) async throws(AuthError) {
        guard let source else { return }
        let settings = configuration.passwords
        let consumption = try await storeCall("counting the source's failures") {
            try await store.consumeQuota(
                key: "password-source:" + source, window: settings.sourceWindow, limit: settings.maximumFailuresPerSource, at: now)
        }
        if case .exceeded(let until) = consumption {
            _ = try await storeCall("locking the source") {
                try await store.recordFailure(key: "password-source-lock:" + source, at: now, limit: 1, lockout: until - now)
            }
        }
    }
}
