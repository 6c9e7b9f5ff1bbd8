public import OTPSealing

/// Everything the multi-factor service persists: pending enrollments, enrolled factors with their
/// secrets, the highest accepted time step of each factor, failure counters, pending sign-in
/// sign-ins spent and sessions.
///
/// The service holds no state of its own beyond caches, so several service instances (or
/// processes, with a shared durable store) can serve the same users. Operations that decide a race
/// are single atomic operations here, never a read followed by a write in the service:
/// ``recordAcceptedStep(_:factorID:)`` is a compare-and-set, ``recordFailure(key:at:limit:lockout:)``
/// an atomic increment, ``finalizeEnrollment(pendingID:factor:maximumFactorCount:)`` and
/// ``spendPendingSignIn(_:)`` take something away exactly once.
///
/// Records carry secrets as `OTPSecret`. A durable store seals them at rest (for example
/// with AES-256-GCM under an operator key, with the record's id — ``PendingEnrollmentRecord/id`` or
/// ``FactorRecord/id`` — as associated data, so a sealed secret cannot be moved to another record).
///
/// Methods throw only for failures of the store itself (I/O, corruption, a secret that does not
/// unseal); every expected outcome is a return value. The service reports such failures as
/// ``AuthErrorCode/internalError``. Times are Unix seconds. Run `EnrollmentStoreConformance`
/// (module `OTPEnrollmentTestSupport`) against any implementation.
public protocol EnrollmentStore: SignInSourceStore {
    // MARK: Pending enrollments

    /// Stores a started enrollment. Ids are unique: the service never inserts the same id twice.
    func insertPendingEnrollment(_ record: PendingEnrollmentRecord) async throws

    /// The pending enrollment with `id`, or `nil`.
    func pendingEnrollment(id: String) async throws -> PendingEnrollmentRecord?

    /// Deletes the pending enrollment with `id`, if any (its secret must not survive).
    func removePendingEnrollment(id: String) async throws

    /// Atomically turns a pending enrollment into an enrolled factor: when the pending enrollment
    /// `pendingID` exists and `factor.userID` has fewer than `maximumFactorCount` factors (TOTP and
    /// phone together), deletes the pending enrollment and inserts `factor`; otherwise changes
    /// nothing.
    func finalizeEnrollment(
        pendingID: String,
        factor: FactorRecord,
        maximumFactorCount: Int
    ) async throws -> EnrollmentFinalization

    // MARK: Accounts

    /// Stores a new account, and links `identity` to it when given, in one atomic operation,
    /// checking in this order:
    /// 1. no account has the record's id (otherwise ``AccountInsertion/idAlreadyInUse``);
    /// 2. no account has `identity` (otherwise ``AccountInsertion/identityInUse(accountID:)``, naming
    ///    its owner);
    /// 3. no account has the record's email address, compared as stored: normalized (otherwise
    ///    ``AccountInsertion/emailAlreadyInUse``).
    ///
    /// A refusal stores nothing: neither the account nor the identity. Of concurrent insertions with
    /// one email address, or with one identity, exactly one succeeds.
    ///
    /// The `password` provider is never an identity here: an account has a password when its
    /// ``AccountRecord/passwordHash`` is set.
    func insertAccount(_ record: AccountRecord, identity: ProviderIdentity?) async throws -> AccountInsertion

    /// The account with `id`, or `nil`.
    func account(id: String) async throws -> AccountRecord?

    /// The account with the normalized email address `email`, or `nil`.
    func account(email: String) async throws -> AccountRecord?

    /// Links `identity` to account `accountID`, and when `email` is given sets the account's
    /// ``AccountRecord/email`` and ``AccountRecord/isEmailVerified`` to it, in one atomic operation,
    /// checking in this order:
    /// 1. the account exists (otherwise ``ProviderLink/accountNotFound``);
    /// 2. no account has the identity (otherwise ``ProviderLink/identityInUse(accountID:)``, naming
    ///    its owner, which may be this account);
    /// 3. the account has no identity of that provider (otherwise ``ProviderLink/providerAlreadyLinked``);
    /// 4. no other account has `email`'s address (otherwise ``ProviderLink/emailAlreadyInUse``).
    ///
    /// A refusal changes nothing. Of concurrent links of one identity, or with one address, exactly
    /// one succeeds.
    func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String, email: AccountEmailUpdate?) async throws -> ProviderLink

    /// Gives account `accountID` a password: sets its ``AccountRecord/email`` to `email` (normalized
    /// by the caller) and its ``AccountRecord/passwordHash`` to `passwordHash` in one atomic
    /// operation. ``AccountRecord/isEmailVerified`` stays as it was when `email` is the account's
    /// current address, and becomes `false` otherwise. Checks in this order:
    /// 1. the account exists (otherwise ``PasswordLink/accountNotFound``);
    /// 2. it has no password hash (otherwise ``PasswordLink/passwordAlreadyLinked``);
    /// 3. no other account has the address (otherwise ``PasswordLink/emailAlreadyInUse``).
    ///
    /// A refusal changes nothing. Of concurrent links with one address, exactly one succeeds.
    func linkPassword(accountID: String, email: String, passwordHash: String) async throws -> PasswordLink

    /// Removes the account's identity of `providerID`: whether there was one.
    ///
    /// For `password`, which is not stored as an identity, clears the account's
    /// ``AccountRecord/passwordHash``, ``AccountRecord/email`` and ``AccountRecord/isEmailVerified``
    /// (as Firebase's emulator does), and returns whether the account had a password.
    func unlinkProvider(_ providerID: String, accountID: String) async throws -> Bool

    /// The id of the account that has the identity (`providerID`, `providerUID`), or `nil`.
    func accountID(providerID: String, providerUID: String) async throws -> String?

    /// The account's provider identities, ordered by provider id.
    func providerIdentities(accountID: String) async throws -> [ProviderIdentity]

    /// Records a first-factor sign-in of account `id` at `time`, and replaces its password hash
    /// when `passwordHash` is given (a re-hash at new parameters). Nothing when there is no such account.
    func recordAccountSignIn(id: String, at time: Int64, passwordHash: String?) async throws

    /// Sets whether account `id` is disabled (``AccountRecord/isDisabled``): whether there is such an
    /// account.
    func setAccountDisabled(id: String, disabled: Bool) async throws -> Bool

    /// Sets account `id`'s ``AccountRecord/displayName`` and ``AccountRecord/photoURL`` to the given
    /// values (`nil` clears one): whether there is such an account.
    func updateAccountProfile(id: String, displayName: String?, photoURL: String?) async throws -> Bool

    /// Applies `changes` to account `id` in one atomic operation, checking in this order:
    /// 1. the account exists (otherwise ``AccountUpdate/accountNotFound``);
    /// 2. no other account has the new email address (otherwise ``AccountUpdate/emailAlreadyInUse``);
    /// 3. no other account has the new phone identity (otherwise
    ///    ``AccountUpdate/identityInUse(accountID:)``).
    ///
    /// The record's fields change as ``AccountChanges/applied(to:)`` says; a new phone identity
    /// replaces the account's identity of its provider, and a removal deletes the account's `phone`
    /// identity. A refusal changes nothing. Of concurrent updates with one address, or one phone
    /// identity, at most one succeeds.
    func updateAccount(id: String, changes: AccountChanges) async throws -> AccountUpdate

    /// Up to `limit` accounts whose ids come after `id` (all when `nil`), in the order of their ids'
    /// UTF-8 bytes: one page of a listing that goes on after the last id of the page before.
    func accounts(after id: String?, limit: Int) async throws -> [AccountRecord]

    /// Deletes account `id` and everything of its user in one atomic operation: its provider
    /// identities, TOTP and phone factors with their failure counters, pending enrollments,
    /// phone verifications, sessions and recovery codes. Returns
    /// whether there was such an account; without one, changes nothing. Its email address and
    /// identities are free for other accounts afterwards.
    func deleteAccount(id: String) async throws -> Bool

    // MARK: Enrolled factors

    /// The factors of `userID`, oldest first (by ``FactorRecord/enrolledAt``, then ``FactorRecord/id``).
    func factors(userID: String) async throws -> [FactorRecord]

    /// The factor with `id`, or `nil`.
    func factor(id: String) async throws -> FactorRecord?

    /// Deletes the factor `id` when it belongs to `userID`, with its accepted step and failure
    /// counter, and returns it; `nil` when there is no such factor of that user.
    func removeFactor(id: String, userID: String) async throws -> FactorRecord?

    /// Compare-and-set of the factor's highest accepted step: stores `step` only when the factor
    /// exists and `step` is strictly greater than its ``FactorRecord/lastAcceptedStep`` (or it has
    /// none). Of any number of concurrent calls with the same step, exactly one is accepted.
    /// Steps come from Unix times with T0 = 0, so they never exceed `Int64.max` (a SQL store may keep
    /// them in a signed 64-bit column).
    func recordAcceptedStep(_ step: UInt64, factorID: String) async throws -> StepAcceptance

    // MARK: Failure throttling

    /// The failure counter under `key` (an enrollment id or a pending enrollment id); a zero counter
    /// when none was recorded.
    func failureCounter(key: String) async throws -> FailureCounter

    /// Atomically counts one failure under `key` at `time` and returns the new counter.
    ///
    /// A lock that ended at or before `time` is cleared first, together with the failures that led
    /// to it. When the count reaches `limit`, the counter is locked until `time + lockout` and the
    /// count starts again from zero.
    func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) async throws -> FailureCounter

    /// Deletes the counter under `key` (a success ends a run of consecutive failures).
    func resetFailures(key: String) async throws

    // MARK: Pending sign-ins

    // A pending sign-in is not stored when it starts: its credential carries it, authenticated by
    // the service (``PendingSignInRecord``). A store keeps the ids of the pending sign-ins that
    // completed, until they expire, so that each completes once.

    /// Whether the pending sign-in `credential` was spent (it completed a sign-in). A store may
    /// find it by its id and expiry together: the record comes from an authenticated credential.
    func isPendingSignInSpent(_ credential: PendingSignInRecord) async throws -> Bool

    /// Atomically marks `credential` spent until its ``PendingSignInRecord/expiresAt``: `true`
    /// when this call spent it, `false` when it was spent already. Of concurrent calls, exactly
    /// one gets `true`.
    func spendPendingSignIn(_ credential: PendingSignInRecord) async throws -> Bool

    // MARK: Sessions

    /// Stores a signed-in session; when its user then has more than `maximumPerUser` sessions, ends
    /// the oldest (in the order they were stored) until `maximumPerUser` remain. Returns how many
    /// ended. The new session is never among them.
    @discardableResult
    func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws -> Int

    /// The session with `id`, or `nil` when it never existed or was ended.
    func session(id: String) async throws -> SessionRecord?

    /// Records a use of session `id`: sets its ``SessionRecord/lastUsedAt`` and
    /// ``SessionRecord/expiresAt``. Returns `false`, changing nothing, when there is no such session.
    @discardableResult
    func extendSession(id: String, lastUsedAt: Int64, expiresAt: Int64) async throws -> Bool

    /// Ends the session `id`, if any.
    func removeSession(id: String) async throws

    /// Ends every session of `userID` except `keptSessionID`; returns how many ended.
    @discardableResult
    func removeSessions(userID: String, except keptSessionID: String?) async throws -> Int

    /// Ends every session of `userID` that completed sign-in with the second factor
    /// `enrollmentID`; returns how many ended.
    @discardableResult
    func removeSessions(userID: String, signedInWith enrollmentID: String) async throws -> Int

    // MARK: Sign-in in fewer round trips

    // A sign-in otherwise takes eight store calls; these let a store answer a successful one in two
    // (one lock or transaction each: start, complete), which matters on the hot path of a server,
    // and a wrong code in one more (the credential, the lock and the failure together). The
    // default implementations in the extension below compose the operations above, so a store
    // need not implement them.

    /// The TOTP and phone factors of `userID`, as ``factors(userID:)`` and ``phoneFactors(userID:)``
    /// read them: what a sign-in's first step needs.
    func signInFactors(userID: String) async throws -> SignInFactors

    /// The pending sign-in `credential` with its user's account, provider identities and factors,
    /// as ``account(id:)``, ``providerIdentities(accountID:)``, ``factors(userID:)`` and
    /// ``phoneFactors(userID:)`` would read them; `nil` when it was spent
    /// (``isPendingSignInSpent(_:)``). For a server that takes a sign-in up again at its second step.
    func pendingSignInContext(_ credential: PendingSignInRecord) async throws -> PendingSignInContext?

    /// The failure counter under `failureKey`, as ``failureCounter(key:)``; `nil` when the pending
    /// sign-in `credential` was spent (``isPendingSignInSpent(_:)``).
    func pendingSignInFailures(_ credential: PendingSignInRecord, failureKey: String) async throws -> FailureCounter?

    /// Completes a sign-in whose code matched time step `step` of factor `factorID`, in one atomic
    /// operation, checking in this order:
    /// 1. the pending sign-in `credential` was not spent (otherwise
    ///    ``SignInCompletion/credentialNotFound``);
    /// 2. it has not expired at `time` (otherwise ``SignInCompletion/credentialExpired(expiresAt:)``);
    /// 3. the failure counter under `factorID` is not locked at `time`
    ///    (``SignInCompletion/locked(until:)``);
    /// 4. `factorID` is a factor of the credential's user (``SignInCompletion/factorNotFound``);
    /// 5. `step` is strictly greater than the factor's last accepted step, as in
    ///    ``recordAcceptedStep(_:factorID:)`` (``SignInCompletion/stepRejected(lastAcceptedStep:)``).
    ///
    /// When all hold it records `step`, spends the credential as ``spendPendingSignIn(_:)`` does,
    /// deletes the failure counter under `factorID` and stores `session` (of the credential's user)
    /// as ``insertSession(_:maximumPerUser:)`` does with `maximumSessionsPerUser`; otherwise it
    /// changes nothing. Of concurrent calls for one credential, or with one step of one factor, at
    /// most one completes.
    func completeSignIn(
        credential: PendingSignInRecord,
        factorID: String,
        step: UInt64,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion

    /// Counts a wrong second-factor code of a pending sign-in, in one atomic operation, checking
    /// in this order:
    /// 1. the pending sign-in `credential` was not spent (otherwise ``SignInFailure/credentialNotFound``);
    /// 2. it has not expired at `time` (otherwise ``SignInFailure/credentialExpired(expiresAt:)``);
    /// 3. the failure counter under `failureKey` is not locked at `time`
    ///    (``SignInFailure/locked(until:)``).
    ///
    /// When all hold it counts the failure as ``recordFailure(key:at:limit:lockout:)`` does and
    /// returns the counter after it (``SignInFailure/counted(_:)``), which is locked when this
    /// failure reached `limit`; otherwise it changes nothing.
    func recordSignInFailure(
        credential: PendingSignInRecord, failureKey: String, at time: Int64, limit: Int, lockout: Int64
    ) async throws -> SignInFailure

    // MARK: Phone factors

    /// The phone factors of `userID`, oldest first (by ``PhoneFactorRecord/enrolledAt``, then id).
    func phoneFactors(userID: String) async throws -> [PhoneFactorRecord]

    /// The phone factor with `id`, or `nil`.
    func phoneFactor(id: String) async throws -> PhoneFactorRecord?

    /// Deletes the phone factor `id` when it belongs to `userID`, with its failure counter, and
    /// returns it; `nil` when there is no such factor of that user.
    func removePhoneFactor(id: String, userID: String) async throws -> PhoneFactorRecord?

    /// Stores the verification of a code about to be sent.
    func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws

    /// The verification `id`, or `nil`.
    func phoneVerification(id: String) async throws -> PhoneVerificationRecord?

    /// Deletes the verification `id`, if any (its code could not be sent).
    func removePhoneVerification(id: String) async throws

    /// Spends the code of a first-factor verification (a phone number signing in or being linked),
    /// in one atomic operation: the verification `verificationID` exists and is a first-factor one
    /// (otherwise ``PhoneVerificationConsumption/verificationNotFound``), and the code passes
    /// ``PhoneVerificationRecord/checking(_:at:maximumAttempts:)``
    /// (``PhoneVerificationConsumption/wrongCode(attemptsLeft:)`` counts the attempt;
    /// ``PhoneVerificationConsumption/verificationExpired`` deletes the verification). A match
    /// deletes the verification and returns it, so of concurrent uses of one code at most one
    /// succeeds.
    func consumeFirstFactorVerification(
        _ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int
    ) async throws -> PhoneVerificationConsumption

    /// Enrolls the number of an enrollment verification, in one atomic operation, checking in
    /// this order:
    /// 1. the verification `verificationID` exists, is for an enrollment and belongs to `userID`
    ///    (otherwise ``PhoneEnrollmentFinalization/verificationNotFound``);
    /// 2. the user has no phone factor with its number
    ///    (``PhoneEnrollmentFinalization/numberAlreadyEnrolled``);
    /// 3. the user has fewer than `maximumFactorCount` factors, TOTP and phone together
    ///    (``PhoneEnrollmentFinalization/factorLimitReached``);
    /// 4. the code, as ``PhoneVerificationRecord/checking(_:at:maximumAttempts:)`` says
    ///    (``PhoneEnrollmentFinalization/wrongCode(attemptsLeft:)`` counts the attempt;
    ///    ``PhoneEnrollmentFinalization/verificationExpired`` deletes the verification).
    ///
    /// When all hold it deletes the verification and inserts the factor `factorID` with the
    /// verification's number; a refusal at 1–3 changes nothing.
    func finalizePhoneEnrollment(
        verificationID: String,
        userID: String,
        codeDigests: [[UInt8]],
        at time: Int64,
        maximumAttempts: Int,
        factorID: String,
        displayName: String?,
        maximumFactorCount: Int
    ) async throws -> PhoneEnrollmentFinalization

    /// Completes a sign-in with a code sent to a phone factor, in one atomic operation, checking in
    /// this order:
    /// 1. the pending sign-in `credential` was not spent (``SignInCompletion/credentialNotFound``)
    ///    and has not expired (``SignInCompletion/credentialExpired(expiresAt:)``);
    /// 2. the verification `verificationID` exists, is for a sign-in with that credential
    ///    (``SignInCompletion/verificationNotFound``);
    /// 3. the failure counter under its factor is not locked (``SignInCompletion/locked(until:)``);
    /// 4. the factor still exists (``SignInCompletion/factorNotFound``);
    /// 5. the code, as ``PhoneVerificationRecord/checking(_:at:maximumAttempts:)`` says
    ///    (``SignInCompletion/codeRejected`` counts the attempt; ``SignInCompletion/verificationExpired``
    ///    deletes the verification).
    ///
    /// When all hold it deletes the verification, spends the credential, deletes the failure
    /// counter under the factor and stores `session` as ``insertSession(_:maximumPerUser:)`` does.
    /// Of concurrent completions of one verification, at most one completes.
    func completeSignIn(
        credential: PendingSignInRecord,
        phoneVerificationID verificationID: String,
        codeDigests: [[UInt8]],
        maximumAttempts: Int,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion

    // MARK: Recovery codes

    /// The keys the service digests one-time codes under (recovery codes) before this store sees
    /// them: a durable store gives its sealing keys, so that stored digests outlive the process and
    /// a copy of the store cannot test guesses. The default, `nil`, has the service make a random key
    /// that lasts as long as the process, which suits a store that lasts no longer.
    var codeDigestKeys: SecretSealer? { get }

    /// Replaces every recovery code of `userID` with `digests` in one atomic step: the old set
    /// stops working as the new one starts.
    func replaceRecoveryCodes(userID: String, digests: [[UInt8]]) async throws

    /// The number of unused recovery codes of `userID`.
    func recoveryCodeCount(userID: String) async throws -> Int

    /// Completes a sign-in with a recovery code, in one atomic operation, checking in this order:
    /// 1. the pending sign-in `credential` was not spent (otherwise
    ///    ``SignInCompletion/credentialNotFound``);
    /// 2. it has not expired at `time` (otherwise ``SignInCompletion/credentialExpired(expiresAt:)``);
    /// 3. the failure counter under `failureKey` is not locked at `time`
    ///    (``SignInCompletion/locked(until:)``);
    /// 4. one of the credential's user's unused recovery codes has a digest among `digests`
    ///    (``SignInCompletion/codeRejected``).
    ///
    /// When all hold it deletes that code, spends the credential, deletes the failure counter
    /// under `failureKey` and stores `session` as ``insertSession(_:maximumPerUser:)`` does with
    /// `maximumSessionsPerUser`; otherwise it changes nothing. Of concurrent calls with one code,
    /// at most one completes.
    func completeSignIn(
        credential: PendingSignInRecord,
        recoveryCodeDigests digests: [[UInt8]],
        failureKey: String,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion

    // MARK: Quotas

    /// Counts one use of the quota under `key` (such as text messages to one number) of `limit`
    /// uses per `window` seconds at `time`, in one atomic step, as
    /// ``QuotaBucket/consuming(_:window:limit:at:)`` says: allowed while the bucket has room,
    /// refused (counting nothing) beyond. Of concurrent calls, exactly as many as fit are allowed.
    func consumeQuota(key: String, window: Int64, limit: Int, at time: Int64) async throws -> QuotaConsumption

    // MARK: Housekeeping

    /// Deletes pending enrollments whose deadline is before `time`, spent pending sign-ins,
    /// sessions, phone verifications and known sign-in sources that expired before `time`, quota
    /// buckets drained by `time`, and failure counters not locked at `time` that have no failures
    /// or whose last failure was counted before `failuresCountedBefore`: how long failures in a
    /// row are remembered, so that counters do not pile up for every address ever tried.
    func purgeExpired(before time: Int64, failuresCountedBefore: Int64) async throws
}

extension EnrollmentStore {
    /// Stores a new account without a provider identity:
    /// ``insertAccount(_:identity:)`` with `nil`.
    public func insertAccount(_ record: AccountRecord) async throws -> AccountInsertion {
        try await insertAccount(record, identity: nil)
    }

    /// Links `identity` to account `accountID` without changing its email address:
    /// ``linkProviderIdentity(_:accountID:email:)`` with `nil`.
    public func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String) async throws -> ProviderLink {
        try await linkProviderIdentity(identity, accountID: accountID, email: nil)
    }

    public var codeDigestKeys: SecretSealer? { nil }

    public func signInFactors(userID: String) async throws -> SignInFactors {
        SignInFactors(totp: try await factors(userID: userID), phone: try await phoneFactors(userID: userID))
    }

    public func pendingSignInContext(_ credential: PendingSignInRecord) async throws -> PendingSignInContext? {
        guard try await !isPendingSignInSpent(credential) else { return nil }
        let userID = credential.userID
        return PendingSignInContext(
            credential: credential, account: try await account(id: userID), identities: try await providerIdentities(accountID: userID),
            factors: try await signInFactors(userID: userID))
    }

    public func pendingSignInFailures(_ credential: PendingSignInRecord, failureKey: String) async throws -> FailureCounter? {
        guard try await !isPendingSignInSpent(credential) else { return nil }
        return try await failureCounter(key: failureKey)
    }
}

/// The outcome of ``EnrollmentStore/finalizeEnrollment(pendingID:factor:maximumFactorCount:)``.
public enum EnrollmentFinalization: Sendable, Hashable {
    /// The pending enrollment was deleted and the factor inserted.
    case enrolled
    /// No pending enrollment has that id (finalized already, expired and purged, or never started).
    case pendingEnrollmentNotFound
    /// The user already has the maximum number of factors; nothing changed.
    case factorLimitReached
}

/// The outcome of
/// ``EnrollmentStore/completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``.
public enum SignInCompletion: Sendable, Hashable {
    /// The step was recorded, the credential spent, the failures reset and the session stored.
    case completed
    /// The pending sign-in was spent already (it completed a sign-in).
    case credentialNotFound
    /// The credential expired at `expiresAt`.
    case credentialExpired(expiresAt: Int64)
    /// The factor is locked after too many failures until `until`.
    case locked(until: Int64)
    /// The user has no factor with that id.
    case factorNotFound
    /// A step at least as late was accepted already.
    case stepRejected(lastAcceptedStep: UInt64)
    /// The code matched none of the user's unused recovery codes, or not the phone verification's
    /// (whose failed attempts were counted).
    case codeRejected
    /// No phone verification of this sign-in has that id.
    case verificationNotFound
    /// The phone verification expired, or took its last wrong code; it was deleted.
    case verificationExpired
}

/// The outcome of
/// ``EnrollmentStore/recordSignInFailure(credential:failureKey:at:limit:lockout:)``.
public enum SignInFailure: Sendable, Hashable {
    /// The failure was counted; the counter after it, locked when this failure reached the limit.
    case counted(FailureCounter)
    /// The pending sign-in was spent already (it completed a sign-in); nothing was counted.
    case credentialNotFound
    /// The credential expired at `expiresAt`; nothing was counted.
    case credentialExpired(expiresAt: Int64)
    /// The counter was locked already, until `until`; nothing was counted.
    case locked(until: Int64)
}

/// The factors a sign-in's first step found (``EnrollmentStore/signInFactors(userID:)``).
public struct SignInFactors: Sendable, Equatable {
    /// The user's TOTP factors, oldest first.
    public var totp: [FactorRecord]
    /// The user's phone factors, oldest first.
    public var phone: [PhoneFactorRecord]

    /// Creates a result.
    public init(totp: [FactorRecord], phone: [PhoneFactorRecord]) {
        self.totp = totp
        self.phone = phone
    }

    /// Whether the user has no second factor at all.
    public var isEmpty: Bool { totp.isEmpty && phone.isEmpty }
}

/// The outcome of
/// ``EnrollmentStore/finalizePhoneEnrollment(verificationID:userID:codeDigests:at:maximumAttempts:factorID:displayName:maximumFactorCount:)``.
public enum PhoneEnrollmentFinalization: Sendable, Hashable {
    /// The factor was enrolled.
    case enrolled(PhoneFactorRecord)
    /// No enrollment verification of the user has that id (finalized already, expired and purged,
    /// or never started).
    case verificationNotFound
    /// The verification expired, or took its last wrong code; it was deleted.
    case verificationExpired
    /// The code was wrong; `attemptsLeft` more may be tried.
    case wrongCode(attemptsLeft: Int)
    /// The user has this number as a phone factor already; nothing changed.
    case numberAlreadyEnrolled
    /// The user already has the maximum number of factors; nothing changed.
    case factorLimitReached
}

/// The outcome of ``EnrollmentStore/consumeFirstFactorVerification(_:codeDigests:at:maximumAttempts:)``.
public enum PhoneVerificationConsumption: Sendable, Hashable {
    /// The code matched; the verification, returned for its number, is spent.
    case consumed(PhoneVerificationRecord)
    /// No first-factor verification has that id (used already, expired and purged, or never sent).
    case verificationNotFound
    /// The verification expired, or took its last wrong code; it was deleted.
    case verificationExpired
    /// The code was wrong; `attemptsLeft` more may be tried.
    case wrongCode(attemptsLeft: Int)

    /// What checking the code of `verification` comes to, for every store's implementation.
    package init(_ check: PhoneCodeCheck, of verification: PhoneVerificationRecord) {
        switch check {
        case .matched: self = .consumed(verification)
        case .wrong(let attemptsLeft): self = .wrongCode(attemptsLeft: attemptsLeft)
        case .exhausted, .expired: self = .verificationExpired
        }
    }
}

/// The outcome of ``EnrollmentStore/recordAcceptedStep(_:factorID:)``.
public enum StepAcceptance: Sendable, Hashable {
    /// The step was later than every accepted step and is now the factor's last accepted step.
    case accepted
    /// A step at least as late was accepted already; nothing changed.
    case rejected(lastAcceptedStep: UInt64)
    /// No factor has that id.
    case factorNotFound
}
