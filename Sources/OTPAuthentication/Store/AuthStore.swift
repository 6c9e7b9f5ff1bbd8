/// Everything the multi-factor service persists, as the stores of its concerns together
/// (``AccountStore``, ``SessionStore``, ``FactorStore``, ``ThrottleStore``,
/// ``SpentCredentialStore``, ``SignInSourceStore``, ``EmailActionStore``, ``PasskeyStore``, ``AuditStore``), and the operations of a sign-in or an
/// enrollment that span several of them in one atomic step.
///
/// The service holds no state of its own beyond caches, so several service instances (or
/// processes, with a shared durable store) can serve the same users. Operations that decide a race
/// are single atomic operations here, never a read followed by a write in the service:
/// ``FactorStore/recordAcceptedStep(_:factorID:)`` is a compare-and-set,
/// ``ThrottleStore/recordFailure(key:at:limit:lockout:)`` an atomic increment,
/// ``FactorStore/finalizeEnrollment(pendingID:factor:maximumFactorCount:)`` and
/// ``SpentCredentialStore/spendPendingSignIn(_:)`` take something away exactly once, and the
/// completions below decide a sign-in whole.
///
/// Records carry secrets as `OTPSecret`. A durable store seals them at rest (for example
/// with AES-256-GCM under an operator key, with the record's id — ``PendingEnrollmentRecord/id`` or
/// ``FactorRecord/id`` — as associated data, so a sealed secret cannot be moved to another record).
///
/// Methods throw only for failures of the store itself (I/O, corruption, a secret that does not
/// unseal); every expected outcome is a return value. The service reports such failures as
/// ``AuthErrorCode/internalError``. Times are Unix seconds. Run `AuthStoreConformance`
/// (module `OTPAuthenticationTestSupport`) against any implementation.
public protocol AuthStore: AccountStore, SessionStore, FactorStore, ThrottleStore, SpentCredentialStore, SignInSourceStore, EmailActionStore,
    PasskeyStore, AuditStore
{
    // A sign-in otherwise takes eight store calls; these let a store answer a successful one in two
    // (one lock or transaction each: start, complete), which matters on the hot path of a server,
    // and a wrong code in one more (the credential, the lock and the failure together). The reads
    // have default implementations in the extension below, composed of the concerns' reads; the
    // completions and the count of a wrong code have none, as a composition would lose races.

    /// The TOTP and phone factors of `userID`, as ``FactorStore/factors(userID:)`` and ``FactorStore/phoneFactors(userID:)``
    /// read them: what a sign-in's first step needs.
    func signInFactors(userID: String) async throws -> SignInFactors

    /// The pending sign-in `credential` with its user's account, provider identities and factors,
    /// as ``AccountStore/account(id:)``, ``AccountStore/providerIdentities(accountID:)``, ``FactorStore/factors(userID:)`` and
    /// ``FactorStore/phoneFactors(userID:)`` would read them; `nil` when it was spent
    /// (``SpentCredentialStore/isPendingSignInSpent(_:)``). For a server that takes a sign-in up again at its second step.
    func pendingSignInContext(_ credential: PendingSignInRecord) async throws -> PendingSignInContext?

    /// The failure counter under `failureKey`, as ``ThrottleStore/failureCounter(key:)``; `nil` when the pending
    /// sign-in `credential` was spent (``SpentCredentialStore/isPendingSignInSpent(_:)``).
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
    ///    ``FactorStore/recordAcceptedStep(_:factorID:)`` (``SignInCompletion/stepRejected(lastAcceptedStep:)``).
    ///
    /// When all hold it records `step`, spends the credential as ``SpentCredentialStore/spendPendingSignIn(_:)`` does,
    /// deletes the failure counter under `factorID` and stores `session` (of the credential's user)
    /// as ``SessionStore/insertSession(_:maximumPerUser:)`` does with `maximumSessionsPerUser`; otherwise it
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
    /// When all hold it counts the failure as ``ThrottleStore/recordFailure(key:at:limit:lockout:)`` does and
    /// returns the counter after it (``SignInFailure/counted(_:)``), which is locked when this
    /// failure reached `limit`; otherwise it changes nothing.
    func recordSignInFailure(
        credential: PendingSignInRecord, failureKey: String, at time: Int64, limit: Int, lockout: Int64
    ) async throws -> SignInFailure

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
    /// counter under the factor and stores `session` as ``SessionStore/insertSession(_:maximumPerUser:)`` does.
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
    /// under `failureKey` and stores `session` as ``SessionStore/insertSession(_:maximumPerUser:)`` does with
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

    /// Completes a sign-in with a passkey second factor, whose assertion the service verified
    /// against the passkey as read with its counter at `previousSignCount`, in one atomic
    /// operation, checking in this order:
    /// 1. the pending sign-in `credential` was not spent (``SignInCompletion/credentialNotFound``)
    ///    and has not expired at `time` (``SignInCompletion/credentialExpired(expiresAt:)``);
    /// 2. the failure counter under `enrollmentID` is not locked at `time`
    ///    (``SignInCompletion/locked(until:)``);
    /// 3. the credential's user has the passkey factor `enrollmentID`
    ///    (``SignInCompletion/factorNotFound``);
    /// 4. its counter is still `previousSignCount` (``SignInCompletion/codeRejected``: another
    ///    assertion was recorded meanwhile).
    ///
    /// When all hold it records `use` as ``PasskeyStore/recordPasskeyUse(credentialID:previousSignCount:use:)``
    /// does, spends the credential, deletes the failure counter under `enrollmentID` and stores
    /// `session` as ``SessionStore/insertSession(_:maximumPerUser:)`` does with
    /// `maximumSessionsPerUser`; otherwise it changes nothing. Of concurrent calls for one
    /// credential, or at one count of one passkey, at most one completes.
    func completeSignIn(
        credential: PendingSignInRecord,
        passkeyEnrollmentID enrollmentID: String,
        previousSignCount: UInt32,
        use: PasskeyUse,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) async throws -> SignInCompletion

    /// Deletes pending enrollments whose deadline is before `time`, spent pending sign-ins,
    /// sessions, phone verifications, email actions, passkey challenges and known sign-in sources that expired before `time`, quota
    /// buckets drained by `time`, and failure counters not locked at `time` that have no failures
    /// or whose last failure was counted before `failuresCountedBefore`: how long failures in a
    /// row are remembered, so that counters do not pile up for every address ever tried.
    func purgeExpired(before time: Int64, failuresCountedBefore: Int64) async throws
}

extension AuthStore {
    public func signInFactors(userID: String) async throws -> SignInFactors {
        SignInFactors(
            totp: try await factors(userID: userID), phone: try await phoneFactors(userID: userID),
            passkeys: try await passkeys(userID: userID).filter { $0.enrollmentID != nil })
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

/// The outcome of ``FactorStore/finalizeEnrollment(pendingID:factor:maximumFactorCount:)``.
public enum EnrollmentFinalization: Sendable, Hashable {
    /// The pending enrollment was deleted and the factor inserted.
    case enrolled
    /// No pending enrollment has that id (finalized already, expired and purged, or never started).
    case pendingEnrollmentNotFound
    /// The user already has the maximum number of factors; nothing changed.
    case factorLimitReached
}

/// The outcome of
/// ``AuthStore/completeSignIn(credential:factorID:step:at:session:maximumSessionsPerUser:)``.
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
/// ``AuthStore/recordSignInFailure(credential:failureKey:at:limit:lockout:)``.
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

/// The factors a sign-in's first step found (``AuthStore/signInFactors(userID:)``).
public struct SignInFactors: Sendable, Equatable {
    /// The user's TOTP factors, oldest first.
    public var totp: [FactorRecord]
    /// The user's phone factors, oldest first.
    public var phone: [PhoneFactorRecord]
    /// The user's passkeys enrolled as second factors (with an ``PasskeyRecord/enrollmentID``), oldest first.
    public var passkeys: [PasskeyRecord]

    /// Creates a result.
    public init(totp: [FactorRecord], phone: [PhoneFactorRecord], passkeys: [PasskeyRecord] = []) {
        self.totp = totp
        self.phone = phone
        self.passkeys = passkeys
    }

    /// Whether the user has no second factor at all: none of any kind, so that a kind added to
    /// ``FactorKind`` does not compile until it is counted here (or a user with only that kind
    /// would sign in without a second factor).
    public var isEmpty: Bool { FactorKind.allCases.allSatisfy { count(of: $0) == 0 } }

    /// How many of the user's factors are of `kind`.
    public func count(of kind: FactorKind) -> Int {
        switch kind {
        case .totp: totp.count
        case .phone: phone.count
        case .recoveryCode: 0
        case .webauthn: passkeys.count
        }
    }
}

/// The outcome of
/// ``FactorStore/finalizePhoneEnrollment(verificationID:userID:codeDigests:at:maximumAttempts:factorID:displayName:maximumFactorCount:)``.
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

/// The outcome of ``AuthStore/consumeFirstFactorVerification(_:codeDigests:at:maximumAttempts:)``.
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

/// The outcome of ``FactorStore/recordAcceptedStep(_:factorID:)``.
public enum StepAcceptance: Sendable, Hashable {
    /// The step was later than every accepted step and is now the factor's last accepted step.
    case accepted
    /// A step at least as late was accepted already; nothing changed.
    case rejected(lastAcceptedStep: UInt64)
    /// No factor has that id.
    case factorNotFound
}
