internal import OTPCore
public import OTPSealing
internal import Synchronization

/// An ``AuthStore`` that keeps everything in memory, behind one lock: for tests, for
/// ephemeral services, and as the reference behaviour of the store protocol.
///
/// Every operation runs under the lock in one critical section, which makes each of them atomic.
/// Nothing survives the process. The operations never suspend and never fail, so they are
/// synchronous and non-throwing (they still satisfy the protocol's `async throws` requirements):
/// a call through the protocol then costs no async frame of its own.
public final class InMemoryAuthStore: AuthStore {
    /// A user's factors, oldest first (the order ``FactorStore/factors(userID:)`` promises),
    /// and session ids: what a sign-in needs from one lookup.
    private struct UserEntry {
        var factors: [FactorRecord] = []
        var phoneFactors: [PhoneFactorRecord] = []
        /// The enrollment ids of the user's passkey factors, oldest first.
        var passkeyFactorIDs: [String] = []
        var sessionIDs: [String] = []

        /// The ids of the user's enrolled factors of `kind`: what the factor limit counts and what
        /// deleting the account reaches, decided for every kind, so a new one does not compile
        /// until it is decided here.
        func factorIDs(of kind: FactorKind) -> [String] {
            switch kind {
            case .totp: factors.map(\.id)
            case .phone: phoneFactors.map(\.id)
            case .recoveryCode: []
            case .webauthn: passkeyFactorIDs
            }
        }

        var factorCount: Int { FactorKind.allCases.reduce(0) { $0 + factorIDs(of: $1).count } }

        mutating func insert(_ factor: FactorRecord) {
            let index = factors.firstIndex { ($0.enrolledAt, $0.id) > (factor.enrolledAt, factor.id) } ?? factors.endIndex
            factors.insert(factor, at: index)
        }

        /// The compare-and-set of ``FactorStore/recordAcceptedStep(_:factorID:)`` on one of
        /// this user's factors.
        mutating func acceptStep(_ step: UInt64, factorID: String) -> StepAcceptance {
            guard let index = factors.firstIndex(where: { $0.id == factorID }) else { return .factorNotFound }
            if let last = factors[index].lastAcceptedStep, step <= last {
                return .rejected(lastAcceptedStep: last)
            }
            factors[index].lastAcceptedStep = step
            return .accepted
        }

        /// Adds a session id, first taking out the oldest ids that would leave more than `maximum`;
        /// returns those, for the caller to end.
        mutating func appendSession(_ id: String, maximum: Int) -> EvictedSessions {
            var evicted = EvictedSessions()
            while sessionIDs.count >= max(maximum, 1) {
                evicted.append(sessionIDs.removeFirst())
            }
            sessionIDs.append(id)
            return evicted
        }
    }

    /// The sessions a new one pushed out: at a user's limit, exactly one, kept inline so that a
    /// sign-in at the limit allocates nothing; more only after the limit was lowered.
    private struct EvictedSessions: Sequence {
        private var first: String?
        private var others: [String] = []

        var count: Int { first == nil ? 0 : 1 + others.count }

        mutating func append(_ id: String) {
            if first == nil { first = id } else { others.append(id) }
        }

        struct Iterator: IteratorProtocol {
            let evicted: EvictedSessions
            var position = 0

            mutating func next() -> String? {
                defer { position += 1 }
                if position == 0 { return evicted.first }
                return position <= evicted.others.count ? evicted.others[position - 1] : nil
            }
        }

        func makeIterator() -> Iterator { Iterator(evicted: self) }
    }

    private struct ProviderKey: Hashable {
        let providerID: String
        let providerUID: String
    }

    /// A failure counter and when its last failure was counted, for purging by age.
    private struct CountedFailures {
        var counter: FailureCounter
        var countedAt: Int64
    }

    private struct State {
        var pendingEnrollments: [String: PendingEnrollmentRecord] = [:]
        var users: [String: UserEntry] = [:]
        /// The user of each enrolled factor, by enrollment id.
        var factorOwners: [String: String] = [:]
        var failures: [String: CountedFailures] = [:]
        /// Until when each account's sign-in sources stay known, by account id and source.
        var signInSources: [String: [String: Int64]] = [:]
        /// The expiry of each spent pending sign-in, by its id.
        var spentSignIns: [String: Int64] = [:]
        var sessions = ShardedDictionary<SessionRecord>()
        var phoneVerifications: [String: PhoneVerificationRecord] = [:]
        /// Each user's unused recovery code digests.
        var recoveryCodes: [String: [[UInt8]]] = [:]
        var emailActions: [[UInt8]: EmailActionRecord] = [:]
        var passkeyChallenges: [[UInt8]: PasskeyChallengeRecord] = [:]
        var passkeys: [[UInt8]: PasskeyRecord] = [:]
        /// Each user's passkey credential ids, oldest first.
        var passkeyIDs: [String: [[UInt8]]] = [:]
        var quotas: [String: QuotaBucket] = [:]
        var accounts: [String: AccountRecord] = [:]
        /// Account ids by normalized email address.
        var accountEmails: [String: String] = [:]
        /// Each account's provider identities, by provider id.
        var providerIdentities: [String: [String: ProviderIdentity]] = [:]
        /// Account ids by provider id and provider uid.
        var identityOwners: [ProviderKey: String] = [:]
        /// The audit log, oldest first.
        var auditEvents: [AuditEvent] = []
        var lastAuditSequence: Int64 = 0

        /// Appends the pending audit event of the operation running now (`AuditTrail`), if any:
        /// called where the operation has made its change, under the same lock.
        mutating func recordAudit() {
            for event in AuditTrail.pending { append(event) }
        }

        /// Appends `event` with the next sequence number.
        @discardableResult
        mutating func append(_ event: AuditEvent) -> AuditEvent {
            lastAuditSequence += 1
            var recorded = event
            recorded.sequence = lastAuditSequence
            auditEvents.append(recorded)
            return recorded
        }

        func factors(userID: String) -> [FactorRecord] {
            users[userID]?.factors ?? []
        }

        /// Where factor `id` is: its owner and its index in the owner's list.
        func locate(factor id: String) -> (userID: String, index: Int)? {
            guard let userID = factorOwners[id],
                let index = users[userID]?.factors.firstIndex(where: { $0.id == id })
            else { return nil }
            return (userID, index)
        }

        /// Most sign-ins find no failures at all; skipping the lookup then saves hashing the key.
        func failureCounter(key: String) -> FailureCounter {
            failures.isEmpty ? .zero : failures[key]?.counter ?? .zero
        }

        mutating func countFailure(key: String, at time: Int64, limit: Int, lockout: Int64) -> FailureCounter {
            let counter = failureCounter(key: key).recordingFailure(at: time, limit: limit, lockout: lockout)
            failures[key] = CountedFailures(counter: counter, countedAt: time)
            return counter
        }

        mutating func insertSession(_ record: SessionRecord, maximumPerUser: Int) -> Int {
            guard sessions.updateValue(record, forKey: record.id) == nil else { return 0 }
            let evicted = users[record.userID, default: UserEntry()].appendSession(record.id, maximum: maximumPerUser)
            for id in evicted { sessions.removeValue(forKey: id) }
            return evicted.count
        }

        /// The checks every sign-in completion starts with: the credential was not spent and has
        /// not expired at `time`. `nil` when both hold.
        /// The user's passkeys of one role: second factors, or those that sign in alone.
        func passkeys(userID: String, factors: Bool) -> [PasskeyRecord] {
            (passkeyIDs[userID] ?? []).compactMap { passkeys[$0] }.filter { ($0.enrollmentID != nil) == factors }
        }

        func refuseCredential(_ credential: PendingSignInRecord, at time: Int64) -> SignInCompletion? {
            credential.refusal(spent: spentSignIns[credential.id] != nil, at: time)
        }

        /// Sets the user's session ids, dropping the entry when nothing is left in it.
        mutating func setSessionIDs(_ ids: [String], userID: String) {
            users[userID]?.sessionIDs = ids
            dropIfEmpty(userID)
        }

        /// Sets the email address of the existing account `accountID`, keeping the index of
        /// addresses in step: `false`, changing nothing, when another account has the address.
        mutating func setEmail(_ address: String, isVerified: Bool, accountID: String) -> Bool {
            if let owner = accountEmails[address], owner != accountID { return false }
            if let previous = accounts[accountID]?.email, previous != address { accountEmails.removeValue(forKey: previous) }
            accountEmails[address] = accountID
            accounts[accountID]?.email = address
            accounts[accountID]?.isEmailVerified = isVerified
            return true
        }

        /// Removes the account's identity of `providerID`, if any, with its owner entry.
        mutating func removeIdentity(providerID: String, accountID: String) {
            guard let identity = providerIdentities[accountID]?.removeValue(forKey: providerID) else { return }
            identityOwners.removeValue(forKey: ProviderKey(providerID: providerID, providerUID: identity.providerUID))
            if providerIdentities[accountID]?.isEmpty == true { providerIdentities.removeValue(forKey: accountID) }
        }

        /// ``AccountStore/updateAccount(id:changes:)`` under the store's lock.
        mutating func updateAccount(id: String, changes: AccountChanges) -> AccountUpdate {
            guard let account = accounts[id] else { return .accountNotFound }
            if let email = changes.email, let owner = accountEmails[email], owner != id { return .emailAlreadyInUse }
            if case .set(let identity) = changes.phone,
                let owner = identityOwners[ProviderKey(providerID: identity.providerID, providerUID: identity.providerUID)], owner != id
            {
                return .identityInUse(accountID: owner)
            }
            let changed = changes.applied(to: account)
            if let previous = account.email, previous != changed.email { accountEmails.removeValue(forKey: previous) }
            if let email = changed.email { accountEmails[email] = id }
            accounts[id] = changed
            switch changes.phone {
            case .set(let identity):
                removeIdentity(providerID: identity.providerID, accountID: id)
                providerIdentities[id, default: [:]][identity.providerID] = identity
                identityOwners[ProviderKey(providerID: identity.providerID, providerUID: identity.providerUID)] = id
            case .remove:
                removeIdentity(providerID: PhoneAuthProvider.id, accountID: id)
            case nil:
                break
            }
            for providerID in changes.unlinkedIdentityProviders { removeIdentity(providerID: providerID, accountID: id) }
            return .updated(changed)
        }

        mutating func dropIfEmpty(_ userID: String) {
            if let entry = users[userID], entry.factorCount == 0, entry.sessionIDs.isEmpty {
                users.removeValue(forKey: userID)
            }
        }
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    public init() {}

    /// A random key made with the store, so that every service on it digests codes and
    /// authenticates pending credentials alike; `nil` only when OpenSSL could not make one (each
    /// service then makes its own, or fails to start).
    public let codeDigestKeys: SecretSealer? = try? SecretSealer(current: SealingKey.random())

    // MARK: Pending enrollments

    public func insertPendingEnrollment(_ record: PendingEnrollmentRecord) {
        state.withLock { $0.pendingEnrollments[record.id] = record }
    }

    public func pendingEnrollment(id: String) -> PendingEnrollmentRecord? {
        state.withLock { $0.pendingEnrollments[id] }
    }

    public func removePendingEnrollment(id: String) {
        _ = state.withLock { $0.pendingEnrollments.removeValue(forKey: id) }
    }

    public func finalizeEnrollment(
        pendingID: String,
        factor: FactorRecord,
        maximumFactorCount: Int
    ) -> EnrollmentFinalization {
        state.withLock { state in
            guard state.pendingEnrollments[pendingID] != nil else { return .pendingEnrollmentNotFound }
            guard (state.users[factor.userID]?.factorCount ?? 0) < maximumFactorCount else {
                return .factorLimitReached
            }
            state.pendingEnrollments.removeValue(forKey: pendingID)
            if let existing = state.locate(factor: factor.id) {
                state.users[existing.userID]?.factors.remove(at: existing.index)
            }
            state.users[factor.userID, default: UserEntry()].insert(factor)
            state.factorOwners[factor.id] = factor.userID
            state.recordAudit()
            return .enrolled
        }
    }

    // MARK: Enrolled factors

    public func factors(userID: String) -> [FactorRecord] {
        state.withLock { $0.factors(userID: userID) }
    }

    public func factor(id: String) -> FactorRecord? {
        state.withLock { state in
            state.locate(factor: id).flatMap { state.users[$0.userID]?.factors[$0.index] }
        }
    }

    public func removeFactor(id: String, userID: String) -> FactorRecord? {
        state.withLock { state in
            guard let location = state.locate(factor: id), location.userID == userID,
                let record = state.users[userID]?.factors.remove(at: location.index)
            else { return nil }
            state.factorOwners.removeValue(forKey: id)
            state.failures.removeValue(forKey: id)
            state.dropIfEmpty(userID)
            state.recordAudit()
            return record
        }
    }

    public func renameFactor(id: String, userID: String, displayName: String?) -> Bool {
        state.withLock { state in
            guard let location = state.locate(factor: id), location.userID == userID else { return false }
            state.users.modifyValue(forKey: userID) { $0.factors[location.index].displayName = displayName }
            state.recordAudit()
            return true
        }
    }

    public func recordAcceptedStep(_ step: UInt64, factorID: String) -> StepAcceptance {
        state.withLock { state in
            guard let userID = state.factorOwners[factorID] else { return .factorNotFound }
            return state.users.modifyValue(forKey: userID) { $0.acceptStep(step, factorID: factorID) } ?? .factorNotFound
        }
    }

    // MARK: Failure throttling

    public func failureCounter(key: String) -> FailureCounter {
        state.withLock { $0.failureCounter(key: key) }
    }

    public func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) -> FailureCounter {
        state.withLock { state in
            defer { state.recordAudit() }
            return state.countFailure(key: key, at: time, limit: limit, lockout: lockout)
        }
    }

    public func resetFailures(key: String) {
        _ = state.withLock { $0.failures.removeValue(forKey: key) }
    }

    // MARK: Pending sign-ins

    public func isPendingSignInSpent(_ credential: PendingSignInRecord) -> Bool {
        state.withLock { $0.spentSignIns[credential.id] != nil }
    }

    public func spendPendingSignIn(_ credential: PendingSignInRecord) -> Bool {
        state.withLock { $0.spentSignIns.updateValue(credential.expiresAt, forKey: credential.id) == nil }
    }

    // MARK: Sessions

    @discardableResult
    public func insertSession(_ record: SessionRecord, maximumPerUser: Int) -> Int {
        state.withLock { state in
            defer { state.recordAudit() }
            return state.insertSession(record, maximumPerUser: maximumPerUser)
        }
    }

    public func session(id: String) -> SessionRecord? {
        state.withLock { $0.sessions[id] }
    }

    public func sessions(userID: String) -> [SessionRecord] {
        state.withLock { state in
            (state.users[userID]?.sessionIDs ?? []).compactMap { state.sessions[$0] }.sorted {
                ($0.authenticatedAt, $0.id) < ($1.authenticatedAt, $1.id)
            }
        }
    }

    @discardableResult
    public func extendSession(id: String, lastUsedAt: Int64, expiresAt: Int64) -> Bool {
        state.withLock { state in
            guard var record = state.sessions[id] else { return false }
            record.lastUsedAt = lastUsedAt
            record.expiresAt = expiresAt
            state.sessions.updateValue(record, forKey: id)
            return true
        }
    }

    public func removeSession(id: String) {
        state.withLock { state in
            guard let record = state.sessions.removeValue(forKey: id) else { return }
            let ids = state.users[record.userID]?.sessionIDs.filter { $0 != id } ?? []
            state.setSessionIDs(ids, userID: record.userID)
            state.recordAudit()
        }
    }

    public func removeSessions(userID: String, except keptSessionID: String?) -> Int {
        state.withLock { state in
            let ids = state.users[userID]?.sessionIDs ?? []
            var removed = 0
            for id in ids where id != keptSessionID {
                state.sessions.removeValue(forKey: id)
                removed += 1
            }
            let kept = keptSessionID.map { ids.contains($0) ? [$0] : [] } ?? []
            state.setSessionIDs(kept, userID: userID)
            if removed > 0 { state.recordAudit() }
            return removed
        }
    }

    public func removeSessions(userID: String, signedInWith enrollmentID: String) -> Int {
        state.withLock { state in
            let ids = state.users[userID]?.sessionIDs ?? []
            var removed = 0
            var kept: [String] = []
            for id in ids {
                if state.sessions[id]?.secondFactorEnrollmentID == enrollmentID {
                    state.sessions.removeValue(forKey: id)
                    removed += 1
                } else {
                    kept.append(id)
                }
            }
            state.setSessionIDs(kept, userID: userID)
            if removed > 0 { state.recordAudit() }
            return removed
        }
    }

    // MARK: Sign-in in fewer round trips

    public func signInFactors(userID: String) -> SignInFactors {
        state.withLock { state in
            let entry = state.users[userID]
            let passkeys = entry?.passkeyFactorIDs.isEmpty ?? true ? [] : state.passkeys(userID: userID, factors: true)
            return SignInFactors(totp: entry?.factors ?? [], phone: entry?.phoneFactors ?? [], passkeys: passkeys)
        }
    }

    public func pendingSignInFailures(_ credential: PendingSignInRecord, failureKey: String) -> FailureCounter? {
        state.withLock { state in
            state.spentSignIns[credential.id] == nil ? state.failureCounter(key: failureKey) : nil
        }
    }

    public func recordSignInFailure(
        credential: PendingSignInRecord, failureKey: String, at time: Int64, limit: Int, lockout: Int64
    ) -> SignInFailure {
        state.withLock { state in
            if let refusal = SignInFailure(refusing: credential, spent: state.spentSignIns[credential.id] != nil, at: time) {
                return refusal
            }
            let failures = state.failureCounter(key: failureKey)
            if let until = failures.lockEnd(at: time) {
                return .locked(until: until)
            }
            defer { state.recordAudit() }
            return .counted(state.countFailure(key: failureKey, at: time, limit: limit, lockout: lockout))
        }
    }

    public func completeSignIn(
        credential: PendingSignInRecord,
        factorID: String,
        step: UInt64,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) -> SignInCompletion {
        state.withLock { state in
            if let refusal = state.refuseCredential(credential, at: time) { return refusal }
            let failures = state.failureCounter(key: factorID)
            if let until = failures.lockEnd(at: time) {
                return .locked(until: until)
            }
            // One lookup of the user's entry serves the step and the session id.
            var evicted = EvictedSessions()
            let acceptance =
                state.users.modifyValue(forKey: session.userID) { entry in
                    let acceptance = entry.acceptStep(step, factorID: factorID)
                    if acceptance == .accepted {
                        evicted = entry.appendSession(session.id, maximum: maximumSessionsPerUser)
                    }
                    return acceptance
                } ?? .factorNotFound
            switch acceptance {
            case .accepted: break
            case .rejected(let last): return .stepRejected(lastAcceptedStep: last)
            case .factorNotFound: return .factorNotFound
            }
            state.spentSignIns[credential.id] = credential.expiresAt
            if failures != .zero {
                state.failures.removeValue(forKey: factorID)
            }
            state.sessions.updateValue(session, forKey: session.id)
            for id in evicted { state.sessions.removeValue(forKey: id) }
            state.recordAudit()
            return .completed
        }
    }

    // MARK: Phone factors

    public func phoneFactors(userID: String) -> [PhoneFactorRecord] {
        state.withLock { $0.users[userID]?.phoneFactors ?? [] }
    }

    public func phoneFactor(id: String) -> PhoneFactorRecord? {
        state.withLock { state in
            guard let userID = state.factorOwners[id] else { return nil }
            return state.users[userID]?.phoneFactors.first { $0.id == id }
        }
    }

    public func removePhoneFactor(id: String, userID: String) -> PhoneFactorRecord? {
        state.withLock { state in
            guard state.factorOwners[id] == userID, let index = state.users[userID]?.phoneFactors.firstIndex(where: { $0.id == id }),
                let record = state.users[userID]?.phoneFactors.remove(at: index)
            else { return nil }
            state.factorOwners.removeValue(forKey: id)
            state.failures.removeValue(forKey: id)
            state.dropIfEmpty(userID)
            state.recordAudit()
            return record
        }
    }

    public func renamePhoneFactor(id: String, userID: String, displayName: String?) -> Bool {
        state.withLock { state in
            guard state.factorOwners[id] == userID,
                state.users.modifyValue(
                    forKey: userID,
                    { user in
                        guard let index = user.phoneFactors.firstIndex(where: { $0.id == id }) else { return false }
                        user.phoneFactors[index].displayName = displayName
                        return true
                    }) == true
            else { return false }
            state.recordAudit()
            return true
        }
    }

    public func insertPhoneVerification(_ record: PhoneVerificationRecord) {
        state.withLock { $0.phoneVerifications[record.id] = record }
    }

    public func phoneVerification(id: String) -> PhoneVerificationRecord? {
        state.withLock { $0.phoneVerifications[id] }
    }

    public func removePhoneVerification(id: String) {
        _ = state.withLock { $0.phoneVerifications.removeValue(forKey: id) }
    }

    public func consumeFirstFactorVerification(
        _ verificationID: String, codeDigests: [[UInt8]], at time: Int64, maximumAttempts: Int
    ) -> PhoneVerificationConsumption {
        state.withLock { state in
            guard let verification = state.phoneVerifications[verificationID], verification.purpose == .firstFactor else {
                return .verificationNotFound
            }
            let (kept, outcome) = verification.checking(codeDigests, at: time, maximumAttempts: maximumAttempts)
            state.phoneVerifications[verificationID] = kept
            return PhoneVerificationConsumption(outcome, of: verification)
        }
    }

    public func finalizePhoneEnrollment(
        verificationID: String,
        userID: String,
        codeDigests: [[UInt8]],
        at time: Int64,
        maximumAttempts: Int,
        factorID: String,
        displayName: String?,
        maximumFactorCount: Int
    ) -> PhoneEnrollmentFinalization {
        state.withLock { state in
            guard let verification = state.phoneVerifications[verificationID], verification.purpose == .enrollment,
                verification.userID == userID
            else { return .verificationNotFound }
            let entry = state.users[userID]
            if entry?.phoneFactors.contains(where: { $0.phoneNumber == verification.phoneNumber }) == true {
                return .numberAlreadyEnrolled
            }
            guard (entry?.factorCount ?? 0) < maximumFactorCount else { return .factorLimitReached }
            let (kept, outcome) = verification.enrolling(
                codeDigests, at: time, maximumAttempts: maximumAttempts, factorID: factorID, displayName: displayName)
            state.phoneVerifications[verificationID] = kept
            if case .enrolled(let factor) = outcome {
                state.users[userID, default: UserEntry()].phoneFactors.append(factor)
                state.factorOwners[factorID] = userID
                state.recordAudit()
            }
            return outcome
        }
    }

    public func importFactors(userID: String, totp: [FactorRecord], phone: [PhoneFactorRecord], maximumFactorCount: Int) -> Bool {
        state.withLock { state in
            guard (state.users[userID]?.factorCount ?? 0) + totp.count + phone.count <= maximumFactorCount else { return false }
            for factor in totp {
                state.users[userID, default: UserEntry()].insert(factor)
                state.factorOwners[factor.id] = userID
            }
            for factor in phone {
                state.users[userID, default: UserEntry()].phoneFactors.append(factor)
                state.factorOwners[factor.id] = userID
            }
            state.recordAudit()
            return true
        }
    }

    public func completeSignIn(
        credential: PendingSignInRecord,
        phoneVerificationID verificationID: String,
        codeDigests: [[UInt8]],
        maximumAttempts: Int,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) -> SignInCompletion {
        state.withLock { state in
            if let refusal = state.refuseCredential(credential, at: time) { return refusal }
            guard let verification = state.phoneVerifications[verificationID], verification.purpose == .signIn,
                verification.credentialID == credential.id, verification.userID == credential.userID,
                let factorID = verification.enrollmentID
            else { return .verificationNotFound }
            if let until = state.failureCounter(key: factorID).lockEnd(at: time) {
                return .locked(until: until)
            }
            guard state.users[credential.userID]?.phoneFactors.contains(where: { $0.id == factorID }) == true else {
                return .factorNotFound
            }
            let (kept, refusal) = verification.signingIn(codeDigests, at: time, maximumAttempts: maximumAttempts)
            state.phoneVerifications[verificationID] = kept
            if let refusal { return refusal }
            state.spentSignIns[credential.id] = credential.expiresAt
            state.failures.removeValue(forKey: factorID)
            _ = state.insertSession(session, maximumPerUser: maximumSessionsPerUser)
            state.recordAudit()
            return .completed
        }
    }

    // MARK: Recovery codes

    public func insertAccount(_ record: AccountRecord, identity: ProviderIdentity?) -> AccountInsertion {
        state.withLock { state in
            guard state.accounts[record.id] == nil else { return .idAlreadyInUse }
            let key = identity.map { ProviderKey(providerID: $0.providerID, providerUID: $0.providerUID) }
            if let key, let owner = state.identityOwners[key] { return .identityInUse(accountID: owner) }
            if let email = record.email {
                guard state.accountEmails[email] == nil else { return .emailAlreadyInUse }
                state.accountEmails[email] = record.id
            }
            state.accounts[record.id] = record
            if let identity, let key {
                state.providerIdentities[record.id, default: [:]][identity.providerID] = identity
                state.identityOwners[key] = record.id
            }
            state.recordAudit()
            return .inserted
        }
    }

    public func account(id: String) -> AccountRecord? {
        state.withLock { $0.accounts[id] }
    }

    public func account(email: String) -> AccountRecord? {
        state.withLock { state in state.accountEmails[email].flatMap { state.accounts[$0] } }
    }

    public func linkProviderIdentity(_ identity: ProviderIdentity, accountID: String, email: AccountEmailUpdate?) -> ProviderLink {
        state.withLock { state in
            guard state.accounts[accountID] != nil else { return .accountNotFound }
            let key = ProviderKey(providerID: identity.providerID, providerUID: identity.providerUID)
            if let owner = state.identityOwners[key] { return .identityInUse(accountID: owner) }
            guard state.providerIdentities[accountID]?[identity.providerID] == nil else { return .providerAlreadyLinked }
            if let email {
                guard state.setEmail(email.address, isVerified: email.isVerified, accountID: accountID) else { return .emailAlreadyInUse }
            }
            state.providerIdentities[accountID, default: [:]][identity.providerID] = identity
            state.identityOwners[key] = accountID
            state.recordAudit()
            return .linked
        }
    }

    public func linkPassword(accountID: String, email: String, passwordHash: String) -> PasswordLink {
        state.withLock { state in
            guard let account = state.accounts[accountID] else { return .accountNotFound }
            guard account.passwordHash == nil else { return .passwordAlreadyLinked }
            let isVerified = account.email == email && account.isEmailVerified
            guard state.setEmail(email, isVerified: isVerified, accountID: accountID) else { return .emailAlreadyInUse }
            state.accounts[accountID]?.passwordHash = passwordHash
            state.recordAudit()
            return .linked
        }
    }

    public func deleteAccount(id: String) -> Bool {
        state.withLock { state in
            guard let account = state.accounts.removeValue(forKey: id) else { return false }
            if let email = account.email { state.accountEmails.removeValue(forKey: email) }
            for identity in (state.providerIdentities.removeValue(forKey: id) ?? [:]).values {
                state.identityOwners.removeValue(forKey: ProviderKey(providerID: identity.providerID, providerUID: identity.providerUID))
            }
            if let entry = state.users.removeValue(forKey: id) {
                for kind in FactorKind.allCases {
                    for factorID in entry.factorIDs(of: kind) {
                        state.factorOwners.removeValue(forKey: factorID)
                        state.failures.removeValue(forKey: factorID)
                    }
                }
                for session in entry.sessionIDs { state.sessions.removeValue(forKey: session) }
            }
            state.pendingEnrollments = state.pendingEnrollments.filter { $0.value.userID != id }
            state.phoneVerifications = state.phoneVerifications.filter { $0.value.userID != id }
            state.recoveryCodes.removeValue(forKey: id)
            state.signInSources.removeValue(forKey: id)
            state.emailActions = state.emailActions.filter { $0.value.accountID != id }
            state.passkeyChallenges = state.passkeyChallenges.filter { $0.value.userID != id }
            for credentialID in state.passkeyIDs.removeValue(forKey: id) ?? [] { state.passkeys.removeValue(forKey: credentialID) }
            state.recordAudit()
            return true
        }
    }

    public func unlinkProvider(_ providerID: String, accountID: String) -> Bool {
        state.withLock { state in
            if providerID == "password" {
                guard let account = state.accounts[accountID], account.passwordHash != nil else { return false }
                if let email = account.email { state.accountEmails.removeValue(forKey: email) }
                state.accounts[accountID]?.email = nil
                state.accounts[accountID]?.isEmailVerified = false
                state.accounts[accountID]?.passwordHash = nil
                state.recordAudit()
                return true
            }
            guard let identity = state.providerIdentities[accountID]?.removeValue(forKey: providerID) else { return false }
            state.identityOwners.removeValue(forKey: ProviderKey(providerID: providerID, providerUID: identity.providerUID))
            if state.providerIdentities[accountID]?.isEmpty == true { state.providerIdentities.removeValue(forKey: accountID) }
            state.recordAudit()
            return true
        }
    }

    public func accountID(providerID: String, providerUID: String) -> String? {
        state.withLock { $0.identityOwners[ProviderKey(providerID: providerID, providerUID: providerUID)] }
    }

    public func providerIdentities(accountID: String) -> [ProviderIdentity] {
        state.withLock { state in
            (state.providerIdentities[accountID] ?? [:]).values.sorted { $0.providerID < $1.providerID }
        }
    }

    public func recordAccountSignIn(id: String, at time: Int64, rehash: PasswordRehash?) {
        state.withLock { state in
            guard state.accounts[id] != nil else { return }
            state.accounts[id]?.lastSignInAt = time
            if let rehash, state.accounts[id]?.passwordHash == rehash.verified { state.accounts[id]?.passwordHash = rehash.replacement }
        }
    }

    public func setAccountDisabled(id: String, disabled: Bool) -> Bool {
        state.withLock { state in
            guard state.accounts[id] != nil else { return false }
            state.accounts[id]?.isDisabled = disabled
            state.recordAudit()
            return true
        }
    }

    public func updateAccountProfile(id: String, displayName: String?, photoURL: String?) -> Bool {
        state.withLock { state in
            guard state.accounts[id] != nil else { return false }
            state.accounts[id]?.displayName = displayName
            state.accounts[id]?.photoURL = photoURL
            return true
        }
    }

    public func updateAccount(id: String, changes: AccountChanges) -> AccountUpdate {
        state.withLock { state in
            let update = state.updateAccount(id: id, changes: changes)
            if case .updated = update { state.recordAudit() }
            return update
        }
    }

    public func accounts(after id: String?, limit: Int) -> [AccountRecord] {
        state.withLock { state in
            // A sorted copy per page: the in-memory store serves tests and small deployments, whose
            // listings are short.
            let later = state.accounts.values.filter { account in id.map { $0.utf8.lexicographicallyPrecedes(account.id.utf8) } ?? true }
            return Array(later.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.prefix(max(limit, 0)))
        }
    }

    public func replaceRecoveryCodes(userID: String, digests: [[UInt8]]) {
        state.withLock { state in
            state.recoveryCodes[userID] = digests.isEmpty ? nil : digests
            state.recordAudit()
        }
    }

    public func recoveryCodeCount(userID: String) -> Int {
        state.withLock { $0.recoveryCodes[userID]?.count ?? 0 }
    }

    public func completeSignIn(
        credential: PendingSignInRecord,
        recoveryCodeDigests digests: [[UInt8]],
        failureKey: String,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) -> SignInCompletion {
        state.withLock { state in
            if let refusal = state.refuseCredential(credential, at: time) { return refusal }
            let failures = state.failureCounter(key: failureKey)
            if let until = failures.lockEnd(at: time) {
                return .locked(until: until)
            }
            guard var codes = state.recoveryCodes[credential.userID] else { return .codeRejected }
            // Every stored code is compared, in constant time, so the time does not tell which matched.
            var match: Int?
            for (index, code) in codes.enumerated() where ConstantTime.contains(digests, code) && match == nil {
                match = index
            }
            guard let index = match else { return .codeRejected }
            codes.remove(at: index)
            state.recoveryCodes[credential.userID] = codes.isEmpty ? nil : codes
            state.spentSignIns[credential.id] = credential.expiresAt
            state.failures.removeValue(forKey: failureKey)
            _ = state.insertSession(session, maximumPerUser: maximumSessionsPerUser)
            state.recordAudit()
            return .completed
        }
    }

    public func completeSignIn(
        credential: PendingSignInRecord,
        passkeyEnrollmentID enrollmentID: String,
        previousSignCount: UInt32,
        use: PasskeyUse,
        at time: Int64,
        session: SessionRecord,
        maximumSessionsPerUser: Int
    ) -> SignInCompletion {
        state.withLock { state in
            if let refusal = state.refuseCredential(credential, at: time) { return refusal }
            if let until = state.failureCounter(key: enrollmentID).lockEnd(at: time) { return .locked(until: until) }
            guard let passkey = state.passkeys(userID: credential.userID, factors: true).first(where: { $0.enrollmentID == enrollmentID }) else {
                return .factorNotFound
            }
            let recorded = state.passkeys.modifyValue(forKey: passkey.credentialID) { $0.record(use, previousSignCount: previousSignCount) }
            guard recorded == true else { return .codeRejected }
            state.spentSignIns[credential.id] = credential.expiresAt
            state.failures.removeValue(forKey: enrollmentID)
            _ = state.insertSession(session, maximumPerUser: maximumSessionsPerUser)
            state.recordAudit()
            return .completed
        }
    }

    // MARK: Quotas

    public func consumeQuota(key: String, window: Int64, limit: Int, at time: Int64) -> QuotaConsumption {
        state.withLock { state in
            let (bucket, outcome) = QuotaBucket.consuming(state.quotas[key], window: window, limit: limit, at: time)
            state.quotas[key] = bucket
            return outcome
        }
    }

    // MARK: Sign-in sources

    public func recordSignInSource(_ source: String, accountID: String, until: Int64) {
        state.withLock { state in
            let known = state.signInSources[accountID]?[source] ?? .min
            state.signInSources[accountID, default: [:]][source] = max(known, until)
        }
    }

    public func isKnownSignInSource(_ source: String, accountID: String, at time: Int64) -> Bool {
        state.withLock { state in (state.signInSources[accountID]?[source]).map { time <= $0 } ?? false }
    }

    // MARK: Email actions

    public func insertEmailAction(_ action: EmailActionRecord) {
        state.withLock { $0.emailActions[action.codeDigest] = action }
    }

    public func emailAction(digests: [[UInt8]]) -> EmailActionRecord? {
        state.withLock { state in
            for digest in digests { if let action = state.emailActions[digest] { return action } }
            return nil
        }
    }

    public func deleteEmailAction(digest: [UInt8]) -> Bool {
        state.withLock { $0.emailActions.removeValue(forKey: digest) != nil }
    }

    public func completeEmailAction(digest: [UInt8], at time: Int64, changes: AccountChanges?, accountID: String?) -> EmailActionCompletion {
        state.withLock { state in
            guard let action = state.emailActions[digest] else { return .notFound }
            guard time <= action.expiresAt else {
                state.emailActions.removeValue(forKey: digest)
                return .expired
            }
            var account: AccountRecord?
            if let changes {
                guard let accountID = accountID ?? action.accountID else { return .accountNotUpdated(.accountNotFound) }
                switch state.updateAccount(id: accountID, changes: changes) {
                case .updated(let updated): account = updated
                case let refused: return .accountNotUpdated(refused)
                }
            }
            state.emailActions.removeValue(forKey: digest)
            state.recordAudit()
            return .completed(account: account)
        }
    }

    // MARK: Passkeys

    public func insertPasskeyChallenge(_ challenge: PasskeyChallengeRecord) {
        state.withLock { $0.passkeyChallenges[challenge.digest] = challenge }
    }

    public func takePasskeyChallenge(digest: [UInt8]) -> PasskeyChallengeRecord? {
        state.withLock { $0.passkeyChallenges.removeValue(forKey: digest) }
    }

    public func passkeys(userID: String) -> [PasskeyRecord] {
        state.withLock { state in (state.passkeyIDs[userID] ?? []).compactMap { state.passkeys[$0] } }
    }

    public func passkey(credentialID: [UInt8]) -> PasskeyRecord? {
        state.withLock { $0.passkeys[credentialID] }
    }

    public func insertPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) -> PasskeyInsertion {
        state.withLock { state in
            // A second factor needs no account of the service's, as a TOTP factor needs none.
            guard passkey.enrollmentID != nil || state.accounts[passkey.userID] != nil else { return .accountNotFound }
            guard state.passkeys[passkey.credentialID] == nil else { return .credentialInUse }
            if let enrollmentID = passkey.enrollmentID {
                guard (state.users[passkey.userID]?.factorCount ?? 0) < maximumPerUser else { return .limitReached }
                state.users[passkey.userID, default: UserEntry()].passkeyFactorIDs.append(enrollmentID)
                state.factorOwners[enrollmentID] = passkey.userID
            } else {
                guard state.passkeys(userID: passkey.userID, factors: false).count < maximumPerUser else { return .limitReached }
            }
            state.passkeys[passkey.credentialID] = passkey
            // Oldest first, as the SQL stores order them: by time, then by the id's bytes.
            let precedes = { (a: PasskeyRecord, b: PasskeyRecord) in
                a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.credentialID.lexicographicallyPrecedes(b.credentialID)
            }
            var ids = state.passkeyIDs[passkey.userID] ?? []
            ids.insert(passkey.credentialID, at: ids.firstIndex { state.passkeys[$0].map { precedes(passkey, $0) } ?? false } ?? ids.endIndex)
            state.passkeyIDs[passkey.userID] = ids
            state.recordAudit()
            return .inserted
        }
    }

    public func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) -> Bool {
        state.withLock { state in
            state.passkeys.modifyValue(forKey: credentialID) { $0.record(use, previousSignCount: previousSignCount) } ?? false
        }
    }

    public func renamePasskey(credentialID: [UInt8], userID: String, name: String) -> Bool {
        state.withLock { state in
            let renamed =
                state.passkeys.modifyValue(forKey: credentialID) { passkey in
                    guard passkey.userID == userID else { return false }
                    passkey.name = name
                    return true
                } ?? false
            if renamed { state.recordAudit() }
            return renamed
        }
    }

    public func removePasskey(credentialID: [UInt8], userID: String) -> Bool {
        state.withLock { state in
            guard state.passkeys[credentialID]?.userID == userID, let removed = state.passkeys.removeValue(forKey: credentialID) else { return false }
            state.passkeyIDs[userID]?.removeAll { $0 == credentialID }
            if let enrollmentID = removed.enrollmentID {
                state.users[userID]?.passkeyFactorIDs.removeAll { $0 == enrollmentID }
                state.factorOwners.removeValue(forKey: enrollmentID)
                state.failures.removeValue(forKey: enrollmentID)
            }
            state.recordAudit()
            return true
        }
    }

    // MARK: Audit log

    @discardableResult
    public func recordAuditEvent(_ event: AuditEvent) -> AuditEvent {
        state.withLock { $0.append(event) }
    }

    public func auditEvents(_ query: AuditQuery) -> [AuditEvent] {
        state.withLock { state in
            var page: [AuditEvent] = []
            func take(_ events: some Sequence<AuditEvent>) {
                for event in events where query.matches(event) {
                    page.append(event)
                    if page.count == query.limit { break }
                }
            }
            if query.oldestFirst { take(state.auditEvents) } else { take(state.auditEvents.reversed()) }
            return page
        }
    }

    @discardableResult
    public func purgeAuditEvents(before time: Int64) -> Int {
        state.withLock { state in
            let kept = state.auditEvents.firstIndex { $0.time >= time } ?? state.auditEvents.endIndex
            state.auditEvents.removeFirst(kept)
            return kept
        }
    }

    // MARK: Housekeeping

    public func purgeExpired(before time: Int64, failuresCountedBefore: Int64) {
        state.withLock { state in
            state.pendingEnrollments = state.pendingEnrollments.filter { $0.value.deadline >= time }
            state.spentSignIns = state.spentSignIns.filter { $0.value >= time }
            state.quotas = state.quotas.filter { $0.value.drainedAt > time &* 1_000 }
            state.emailActions = state.emailActions.filter { $0.value.expiresAt >= time }
            state.passkeyChallenges = state.passkeyChallenges.filter { $0.value.expiresAt >= time }
            state.phoneVerifications = state.phoneVerifications.filter { $0.value.expiresAt >= time }
            var endedByUser: [String: Set<String>] = [:]
            for record in state.sessions.removeAll(where: { $0.expiresAt < time }) {
                endedByUser[record.userID, default: []].insert(record.id)
            }
            for (userID, ended) in endedByUser {
                let kept = state.users[userID]?.sessionIDs.filter { !ended.contains($0) } ?? []
                state.setSessionIDs(kept, userID: userID)
            }
            state.failures = state.failures.filter { _, counted in
                let remembered = counted.counter.consecutiveFailures > 0 && counted.countedAt >= failuresCountedBefore
                return remembered || (counted.counter.lockedUntil.map { $0 >= time } ?? false)
            }
            state.signInSources = state.signInSources.compactMapValues { sources in
                let known = sources.filter { $0.value >= time }
                return known.isEmpty ? nil : known
            }
        }
    }
}

extension Dictionary {
    /// Runs `body` on the value for `key` in place, with one lookup; `nil` when there is none.
    fileprivate mutating func modifyValue<Result>(forKey key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let index = index(forKey: key) else { return nil }
        return body(&values[index])
    }
}
