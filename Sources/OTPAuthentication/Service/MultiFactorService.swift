public import Logging
internal import OTPSealing
import OTPCore
internal import Synchronization

/// The authentication service of one project: the server half of Firebase Authentication and its
/// multi-factor authentication (what Identity Platform runs behind `accounts:*`,
/// `mfaEnrollment:start/finalize/withdraw` and `mfaSignIn:start/finalize`), with Firebase's client
/// API on top.
///
/// First factors are the service's own (passwords, identity providers, phone numbers, anonymous
/// accounts), or the host application's, which then calls ``signIn(_:)`` with who the user is. Users without second factors are signed in at once; users
/// with them get ``AuthErrorCode/secondFactorRequired`` and a ``MultiFactorResolver``.
///
/// The service keeps nothing of its own but a cache of prepared keys, one per enrolled factor;
/// everything else lives in the ``AuthStore``.
public final class MultiFactorService: Sendable {
    /// The project's settings.
    public let configuration: MultiFactorConfiguration
    let store: any AuthStore
    /// The time source of everything the service decides; a host's own timing (throttles,
    /// purges) reads it too, so one clock moves them all.
    package let clock: any AuthClock
    let opener: any OTPAppOpener
    let smsSender: (any SMSSender)?
    let emailSender: (any EmailSender)?
    let identityProviders: [String: any IdentityTokenVerifier]
    let logger: Logger
    let window: VerificationWindow
    /// The keys codes are digested under: the store's, or a random one for as long as the process.
    let codeDigestKeys: SecretSealer
    /// Pending credentials, under a MAC of ``codeDigestKeys``.
    let pendingCredentials: SignedTokenCodec
    /// Where password hashes run (``PasswordHashingGate``).
    let passwordHashing: PasswordHashingGate
    /// The prepared keys of TOTP factors by enrollment id (MultiFactorService+Verifiers).
    let verifierCache = Mutex<[String: Verifier]>([:])
    private let ids = RandomIDs()

    /// Creates the service of one project.
    ///
    /// - Parameters:
    ///   - configuration: The project's settings.
    ///   - store: Where enrollments, factors, counters, credentials and sessions persist.
    ///   - clock: The time source (inject a ``ManualAuthClock`` in tests).
    ///   - opener: What ``TOTPSecret/openInOTPApp(withQRCodeURL:)`` hands URLs to.
    ///   - smsSender: What sends the codes of phone factors; needed when
    ///     ``PhoneSettings/isEnabled``, unless ``PhoneSettings/testPhoneNumbers`` are the only
    ///     numbers codes go to (any other is then ``AuthErrorCode/operationNotAllowed``).
    ///   - emailSender: What sends the messages of email actions (password resets, address
    ///     verifications, sign-in links); without one, those that send a message are
    ///     ``AuthErrorCode/operationNotAllowed``, and an administrator's links still work.
    ///   - identityProviders: The federated providers whose credentials ``signIn(with:source:)`` and
    ///     ``User/link(with:)-(AuthCredential)`` accept, one verifier per provider id.
    ///   - logger: Receives events; never secrets, codes or credentials.
    /// - Throws: ``MultiFactorConfigurationError`` when a setting cannot work.
    public init(
        configuration: MultiFactorConfiguration = MultiFactorConfiguration(),
        store: any AuthStore,
        clock: any AuthClock = SystemAuthClock(),
        opener: any OTPAppOpener = XDGOpenOpener(),
        smsSender: (any SMSSender)? = nil,
        emailSender: (any EmailSender)? = nil,
        identityProviders: [any IdentityTokenVerifier] = [],
        logger: Logger = Logger(label: "OTPKit.OTPAuthentication")
    ) throws(MultiFactorConfigurationError) {
        try configuration.validate()
        // Test numbers alone need no sender: their codes are fixed and never sent.
        guard smsSender != nil || !configuration.phone.isEnabled || !configuration.phone.testPhoneNumbers.isEmpty else {
            throw .missingSMSSender
        }
        self.smsSender = smsSender
        self.emailSender = emailSender
        var providers: [String: any IdentityTokenVerifier] = [:]
        for verifier in identityProviders {
            guard providers.updateValue(verifier, forKey: verifier.providerID) == nil else { throw .duplicateIdentityProvider(verifier.providerID) }
        }
        self.identityProviders = providers
        self.configuration = configuration
        self.passwordHashing = PasswordHashingGate(
            maximumConcurrent: configuration.passwords.maximumConcurrentHashes, maximumWaiting: configuration.passwords.maximumWaitingHashes)
        self.store = store
        self.clock = clock
        self.opener = opener
        self.logger = logger
        do {
            self.window = try VerificationWindow(adjacentIntervals: configuration.adjacentIntervals)
        } catch {
            throw .adjacentIntervalsOutOfRange(configuration.adjacentIntervals)
        }
        let keys: SecretSealer
        if let storeKeys = store.codeDigestKeys {
            keys = storeKeys
        } else {
            do {
                keys = try SecretSealer(current: SealingKey.random())
            } catch {
                throw .randomKeyUnavailable
            }
        }
        self.codeDigestKeys = keys
        self.pendingCredentials = Self.pendingCredentials(keys)
    }

    /// Deletes expired pending enrollments, sign-in credentials, sessions and known sign-in
    /// sources, drained quotas, ended locks, failures older than
    /// ``MultiFactorConfiguration/failureMemory`` and audit events older than
    /// ``AuditSettings/retention``; call it from time to time.
    public func purgeExpired() async throws(AuthError) {
        let now = clock.now()
        let forgotten = now - configuration.failureMemory
        try await storeCall("purging expired records") { try await store.purgeExpired(before: now, failuresCountedBefore: forgotten) }
        _ = try await storeCall("purging old audit events") { try await store.purgeAuditEvents(before: now - configuration.auditLog.retention) }
    }

    // MARK: Shared steps

    /// Runs a store operation, turning the store's own failures into ``AuthErrorCode/internalError``.
    ///
    /// The store's error goes to the log and to ``AuthError/underlyingError``, never into the
    /// message: a host may forward messages to its clients, and a store's errors name files, SQL
    /// and servers that clients must not see.
    // Inlined so that a store call costs one async frame less on the sign-in hot path.
    @inline(__always)
    func storeCall<Result>(_ operation: String, _ body: () async throws -> Result) async throws(AuthError) -> Result {
        do {
            return try await body()
        } catch {
            logger.error("enrollment store failed", metadata: ["operation": "\(operation)", "error": "\(error)"])
            throw AuthError(
                .internalError,
                "the server could not complete this request (its enrollment store failed while \(operation)): try again later",
                underlyingError: error
            )
        }
    }

    /// The session record of a signed-in user, or the error that says it ended.
    func liveSession(_ user: User) async throws(AuthError) -> SessionRecord {
        if let ended = user.withState({ $0.endedWith }) {
            throw ended
        }
        guard let record = try await liveSessionRecord(id: user.sessionID, now: clock.now()) else {
            throw AuthError(
                .userTokenExpired,
                "this session was revoked (another session enrolled a second factor, it was signed out, or the user signed in on too many devices): sign in again"
            )
        }
        return record
    }

    /// Uses within this many seconds of the recorded last use are not written, so a busy session
    /// costs a store write a minute rather than one per request (half the idle lifetime, when that
    /// is shorter, so that a session in use never idles out).
    var sessionUseResolution: Int64 {
        min(60, max(1, configuration.sessionIdleLifetime / 2))
    }

    /// The session `id` when it is live at `now`, with this use recorded; `nil` when there is no
    /// such session.
    /// - Throws: ``AuthErrorCode/userTokenExpired`` when it expired (it is then deleted).
    func liveSessionRecord(id: String, now: Int64) async throws(AuthError) -> SessionRecord? {
        guard var record = try await storeCall("reading the session", { try await store.session(id: id) }) else {
            return nil
        }
        guard now <= record.expiresAt else {
            try await storeCall("ending an expired session") { try await store.removeSession(id: id) }
            logger.info("session expired", metadata: ["user": "\(record.userID)"])
            throw AuthError(
                .userTokenExpired,
                "this session expired (sessions end after \(configuration.sessionIdleLifetime) seconds unused or \(configuration.sessionAbsoluteLifetime) seconds after sign-in): sign in again"
            )
        }
        if now - record.lastUsedAt >= sessionUseResolution {
            let expiresAt = sessionExpiry(authenticatedAt: record.authenticatedAt, lastUsedAt: now)
            guard try await storeCall("recording the session's use", { try await store.extendSession(id: id, lastUsedAt: now, expiresAt: expiresAt) })
            else {
                return nil
            }
            record.lastUsedAt = now
            record.expiresAt = expiresAt
        }
        return record
    }

    /// When a session started at `authenticatedAt` and last used at `lastUsedAt` ends: the earlier
    /// of its idle and its absolute lifetime.
    func sessionExpiry(authenticatedAt: Int64, lastUsedAt: Int64) -> Int64 {
        func adding(_ a: Int64, _ b: Int64) -> Int64 {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? .max : sum
        }
        return min(adding(lastUsedAt, configuration.sessionIdleLifetime), adding(authenticatedAt, configuration.sessionAbsoluteLifetime))
    }

    func requireRecentLogin(_ session: SessionRecord, now: Int64, for operation: String) throws(AuthError) {
        guard now - session.authenticatedAt <= configuration.recentLoginWindow else {
            throw AuthError(
                .requiresRecentLogin,
                "\(operation) needs a sign-in within the last \(configuration.recentLoginWindow) seconds: sign in again, then retry")
        }
    }

    /// Checks that `session`, live, may change how its account is signed in to (`operation`: a
    /// password, an address, a linked or unlinked provider, the account's deletion): unless
    /// ``MultiFactorConfiguration/credentialChangesRequireRecentLogin`` is off, signed in within
    /// ``MultiFactorConfiguration/recentLoginWindow``, as Firebase requires. With
    /// `needsSecondFactor`, an account with second factors also needs a session that completed
    /// one, as a fresh sign-in would: otherwise the first factor alone could replace the credential
    /// that the second factor guards.
    func requireCredentialChange(_ session: SessionRecord, for operation: String, needsSecondFactor: Bool = false) async throws(AuthError) {
        guard configuration.credentialChangesRequireRecentLogin else { return }
        try requireRecentLogin(session, now: clock.now(), for: operation)
        if needsSecondFactor, session.secondFactorEnrollmentID == nil, !(try await enrolledFactors(userID: session.userID)).isEmpty {
            throw AuthError(
                .requiresRecentLogin,
                "\(operation) on an account with second factors needs a sign-in that completed one: sign in again with the second factor, then retry"
            )
        }
    }

    /// A new unguessable id (``RandomIDs``).
    func newID() throws(AuthError) -> String {
        try ids.next()
    }

    /// Counts a failed code under `key` and returns the error to report; with `userID`, a
    /// failed sign-in of that user, which the audit log records.
    func failure(key: String, kind: String, now: Int64, reason: String, signingIn userID: String? = nil) async -> AuthError {
        let counter: FailureCounter
        let event = userID.flatMap { auditEvent(.signInFailed, userID: $0, factorID: key, reason: "wrong code") }
        do {
            counter = try await storeCall("counting a failure", recording: event) {
                try await store.recordFailure(
                    key: key, at: now, limit: configuration.maximumConsecutiveFailures, lockout: configuration.lockoutDuration)
            }
        } catch {
            return error
        }
        return failure(counted: counter, kind: kind, now: now, reason: reason)
    }

    /// The error for a failure just counted: the lock it started, or the wrong code.
    func failure(counted counter: FailureCounter, kind: String, now: Int64, reason: String) -> AuthError {
        if let until = counter.lockEnd(at: now) {
            logger.notice("locked after repeated failed codes", metadata: ["kind": "\(kind)", "seconds": "\(until - now)"])
            return tooManyRequests(until: until, now: now)
        }
        return AuthError(.invalidVerificationCode, reason)
    }

    func tooManyRequests(until: Int64, now: Int64) -> AuthError {
        AuthError(.tooManyRequests, "too many wrong codes in a row: try again in \(until - now) seconds")
    }
}
