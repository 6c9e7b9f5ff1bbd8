internal import Synchronization

/// An ``EnrollmentStore`` that keeps everything in memory, behind one lock: for tests, for
/// ephemeral services, and as the reference behaviour of the store protocol.
///
/// Every operation runs under the lock in one critical section, which makes each of them atomic.
/// Nothing survives the process.
public final class InMemoryEnrollmentStore: EnrollmentStore {
    private struct State {
        var pendingEnrollments: [String: PendingEnrollmentRecord] = [:]
        var factors: [String: FactorRecord] = [:]
        var factorIDsByUser: [String: [String]] = [:]
        var failures: [String: FailureCounter] = [:]
        var pendingSignIns: [String: PendingSignInRecord] = [:]
        var sessions = ShardedDictionary<SessionRecord>()
        var sessionIDsByUser: [String: [String]] = [:]

        func factors(userID: String) -> [FactorRecord] {
            guard let ids = factorIDsByUser[userID] else { return [] }
            var records: [FactorRecord] = []
            records.reserveCapacity(ids.count)
            for id in ids {
                if let record = factors[id] { records.append(record) }
            }
            return records
        }

        /// Most sign-ins find no failures at all; skipping the lookup then saves hashing the key.
        func failureCounter(key: String) -> FailureCounter {
            failures.isEmpty ? .zero : failures[key] ?? .zero
        }

        mutating func insertSession(_ record: SessionRecord) {
            if sessions.updateValue(record, forKey: record.id) == nil {
                sessionIDsByUser[record.userID, default: []].append(record.id)
            }
        }
    }

    /// Sorts outside the lock, in place (no second array).
    private static func oldestFirst(_ records: consuming [FactorRecord]) -> [FactorRecord] {
        if records.count > 1 {
            records.sort { ($0.enrolledAt, $0.id) < ($1.enrolledAt, $1.id) }
        }
        return records
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    public init() {}

    // MARK: Pending enrollments

    public func insertPendingEnrollment(_ record: PendingEnrollmentRecord) async throws {
        state.withLock { $0.pendingEnrollments[record.id] = record }
    }

    public func pendingEnrollment(id: String) async throws -> PendingEnrollmentRecord? {
        state.withLock { $0.pendingEnrollments[id] }
    }

    public func removePendingEnrollment(id: String) async throws {
        _ = state.withLock { $0.pendingEnrollments.removeValue(forKey: id) }
    }

    public func finalizeEnrollment(
        pendingID: String,
        factor: FactorRecord,
        maximumFactorCount: Int
    ) async throws -> EnrollmentFinalization {
        state.withLock { state in
            guard state.pendingEnrollments[pendingID] != nil else { return .pendingEnrollmentNotFound }
            guard state.factorIDsByUser[factor.userID, default: []].count < maximumFactorCount else {
                return .factorLimitReached
            }
            state.pendingEnrollments.removeValue(forKey: pendingID)
            state.factors[factor.id] = factor
            state.factorIDsByUser[factor.userID, default: []].append(factor.id)
            return .enrolled
        }
    }

    // MARK: Enrolled factors

    public func factors(userID: String) async throws -> [FactorRecord] {
        Self.oldestFirst(state.withLock { $0.factors(userID: userID) })
    }

    public func factor(id: String) async throws -> FactorRecord? {
        state.withLock { $0.factors[id] }
    }

    public func removeFactor(id: String, userID: String) async throws -> FactorRecord? {
        state.withLock { state in
            guard let record = state.factors[id], record.userID == userID else { return nil }
            state.factors.removeValue(forKey: id)
            state.failures.removeValue(forKey: id)
            state.factorIDsByUser[userID]?.removeAll { $0 == id }
            if state.factorIDsByUser[userID]?.isEmpty == true {
                state.factorIDsByUser.removeValue(forKey: userID)
            }
            return record
        }
    }

    public func recordAcceptedStep(_ step: UInt64, factorID: String) async throws -> StepAcceptance {
        state.withLock { state in
            guard let index = state.factors.index(forKey: factorID) else { return .factorNotFound }
            if let last = state.factors.values[index].lastAcceptedStep, step <= last {
                return .rejected(lastAcceptedStep: last)
            }
            state.factors.values[index].lastAcceptedStep = step
            return .accepted
        }
    }

    // MARK: Failure throttling

    public func failureCounter(key: String) async throws -> FailureCounter {
        state.withLock { $0.failureCounter(key: key) }
    }

    public func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) async throws -> FailureCounter {
        state.withLock { state in
            var counter = state.failures[key] ?? .zero
            if let lockedUntil = counter.lockedUntil, lockedUntil <= time {
                counter = .zero
            }
            counter.consecutiveFailures += 1
            if counter.consecutiveFailures >= limit {
                counter = FailureCounter(consecutiveFailures: 0, lockedUntil: time &+ lockout)
            }
            state.failures[key] = counter
            return counter
        }
    }

    public func resetFailures(key: String) async throws {
        _ = state.withLock { $0.failures.removeValue(forKey: key) }
    }

    // MARK: Pending sign-in credentials

    public func insertPendingSignIn(_ record: PendingSignInRecord) async throws {
        state.withLock { $0.pendingSignIns[record.id] = record }
    }

    public func pendingSignIn(id: String) async throws -> PendingSignInRecord? {
        state.withLock { $0.pendingSignIns[id] }
    }

    public func consumePendingSignIn(id: String) async throws -> PendingSignInRecord? {
        state.withLock { $0.pendingSignIns.removeValue(forKey: id) }
    }

    // MARK: Sessions

    public func insertSession(_ record: SessionRecord) async throws {
        state.withLock { $0.insertSession(record) }
    }

    public func session(id: String) async throws -> SessionRecord? {
        state.withLock { $0.sessions[id] }
    }

    public func removeSession(id: String) async throws {
        state.withLock { state in
            guard let record = state.sessions.removeValue(forKey: id) else { return }
            state.sessionIDsByUser[record.userID]?.removeAll { $0 == id }
        }
    }

    public func removeSessions(userID: String, except keptSessionID: String?) async throws -> Int {
        state.withLock { state in
            let ids = state.sessionIDsByUser[userID] ?? []
            var removed = 0
            for id in ids where id != keptSessionID {
                state.sessions.removeValue(forKey: id)
                removed += 1
            }
            if let keptSessionID, ids.contains(keptSessionID) {
                state.sessionIDsByUser[userID] = [keptSessionID]
            } else {
                state.sessionIDsByUser.removeValue(forKey: userID)
            }
            return removed
        }
    }

    public func removeSessions(userID: String, signedInWith enrollmentID: String) async throws -> Int {
        state.withLock { state in
            let ids = state.sessionIDsByUser[userID] ?? []
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
            state.sessionIDsByUser[userID] = kept.isEmpty ? nil : kept
            return removed
        }
    }

    // MARK: Sign-in in fewer round trips

    public func factorsStartingSignIn(_ credential: PendingSignInRecord) async throws -> [FactorRecord] {
        Self.oldestFirst(state.withLock { state in
            let records = state.factors(userID: credential.userID)
            if !records.isEmpty {
                state.pendingSignIns[credential.id] = credential
            }
            return records
        })
    }

    public func pendingSignIn(id: String, failureKey: String) async throws -> (credential: PendingSignInRecord, failures: FailureCounter)? {
        state.withLock { state in
            guard let credential = state.pendingSignIns[id] else { return nil }
            return (credential, state.failureCounter(key: failureKey))
        }
    }

    public func completeSignIn(credentialID: String, session: SessionRecord, resettingFailuresOf failureKey: String?) async throws -> Bool {
        state.withLock { state in
            if let failureKey {
                state.failures.removeValue(forKey: failureKey)
            }
            guard state.pendingSignIns.removeValue(forKey: credentialID) != nil else { return false }
            state.insertSession(session)
            return true
        }
    }

    // MARK: Housekeeping

    public func purgeExpired(before time: Int64) async throws {
        state.withLock { state in
            state.pendingEnrollments = state.pendingEnrollments.filter { $0.value.deadline >= time }
            state.pendingSignIns = state.pendingSignIns.filter { $0.value.expiresAt >= time }
            state.failures = state.failures.filter { _, counter in
                counter.consecutiveFailures > 0 || (counter.lockedUntil.map { $0 >= time } ?? false)
            }
        }
    }
}
