package import OTPAuthentication

/// Many sign-in completions decided together: what a durable store reads for them, in a few
/// set-based statements, and what it then writes, in a few more, all in one transaction.
///
/// The rules are those of `AuthStore.completeSignIn`, applied to the requests one after the
/// other in the order given, each seeing what the ones before it changed (a credential spent, a
/// step accepted, a failure counter cleared). Concurrent requests have no order of their own, so
/// any order is one they could have run in alone; the outcome is the same as that of running them
/// one at a time, with the statements of a batch in place of a transaction each.
package struct SignInCompletionBatch: Sendable {
    /// One caller's `completeSignIn`.
    package struct Request: Sendable {
        package var credential: PendingSignInRecord
        package var factorID: String
        /// The matched time step, as the stores keep it (a signed 64-bit column).
        package var step: Int64
        package var time: Int64
        package var session: SessionRecord
        package var maximumSessionsPerUser: Int
        /// The audit event the completion writes, taken from the caller's task
        /// (`AuditTrail.pending`) before the request joins a batch run by another task.
        package var audit: AuditEvent?

        package init(
            credential: PendingSignInRecord, factorID: String, step: Int64, time: Int64, session: SessionRecord, maximumSessionsPerUser: Int,
            audit: AuditEvent? = AuditTrail.pending.first
        ) {
            self.credential = credential
            self.factorID = factorID
            self.step = step
            self.time = time
            self.session = session
            self.maximumSessionsPerUser = maximumSessionsPerUser
            self.audit = audit
        }
    }

    /// A TOTP factor as a completion needs it.
    package struct Factor: Sendable {
        package var userID: String
        package var lastAcceptedStep: Int64?

        package init(userID: String, lastAcceptedStep: Int64?) {
            self.userID = userID
            self.lastAcceptedStep = lastAcceptedStep
        }
    }

    /// What the database holds for the batch's credentials, counters and factors; absent keys
    /// have no row.
    package struct Rows: Sendable {
        /// The batch's credentials that were spent already.
        package var spentCredentials: Set<String> = []
        package var failures: [String: FailureCounter] = [:]
        package var factors: [String: Factor] = [:]

        package init() {}
    }

    /// A completion that succeeded, with everything it writes.
    package struct Completed: Sendable {
        package var credential: PendingSignInRecord
        package var factorID: String
        package var step: Int64
        /// Whether the factor's failure counter is cleared: it counted failures before.
        package var clearsFailures: Bool
        package var session: SessionRecord
        /// How many of the user's sessions, newest first, are kept once ``session`` is stored.
        package var sessionCap: Int
        /// The audit event it writes.
        package var audit: AuditEvent?
    }

    /// Each request's outcome, in the order of the requests.
    package private(set) var outcomes: [SignInCompletion] = []
    /// The completions that succeeded, in the order of the requests: applied one after the other,
    /// each as a run of it alone would, they write what the set-wide views below say together, so
    /// a store may send one row per completion or one statement per kind of write.
    package private(set) var completed: [Completed] = []

    /// The credentials the completions spend.
    package var spentCredentials: [PendingSignInRecord] { completed.map(\.credential) }
    /// The factors whose last accepted step moves on, with the step: the last completion's, which
    /// is the highest, since each one accepted on a factor is above the one before.
    package var acceptedSteps: [(factorID: String, step: Int64)] {
        Dictionary(completed.map { ($0.factorID, $0.step) }, uniquingKeysWith: { _, last in last }).map { (factorID: $0.key, step: $0.value) }
    }
    /// The audit events of the completions, in their order.
    package var auditEvents: [AuditEvent] { completed.compactMap(\.audit) }
    /// The failure counters a completion clears.
    package var clearedFailures: [String] { completed.filter(\.clearsFailures).map(\.factorID) }
    /// The sessions to store, in the order of their completions, and for each of their users how
    /// many of the sessions stored before the batch stay. Each user keeps the newest sessions up
    /// to the cap (the last completion's, should concurrent completions of one user name different
    /// caps): a new session beyond it would end as soon as it was stored, so it is not stored, and
    /// the stored ones make room for the new.
    package var sessionsKept: (new: [SessionRecord], storedKept: [(userID: String, count: Int)]) {
        let caps = Dictionary(completed.map { ($0.session.userID, $0.sessionCap) }, uniquingKeysWith: { _, last in last })
        var added: [String: Int] = [:]
        var new: [SessionRecord] = []
        for completion in completed.reversed() {
            let user = completion.session.userID
            if added[user, default: 0] < caps[user, default: 1] { new.append(completion.session) }
            added[user, default: 0] += 1
        }
        return (new.reversed(), caps.map { (userID: $0.key, count: max(0, $0.value - added[$0.key, default: 0])) })
    }

    /// Decides `requests` against `rows`.
    package init(_ requests: [Request], rows: Rows) {
        var rows = rows
        for request in requests {
            outcomes.append(complete(request, rows: &rows))
        }
    }

    /// What the batch reads: its credentials (each once) and its factors' ids (also the failure
    /// counters' keys).
    package static func keys(of requests: [Request]) -> (credentials: [PendingSignInRecord], factors: [String]) {
        (Array(Set(requests.map(\.credential))), Array(Set(requests.map(\.factorID))))
    }

    private mutating func complete(_ request: Request, rows: inout Rows) -> SignInCompletion {
        let credential = request.credential
        if let refusal = credential.refusal(spent: rows.spentCredentials.contains(credential.id), at: request.time) { return refusal }
        let failures = rows.failures[request.factorID] ?? .zero
        if let until = failures.lockEnd(at: request.time) {
            return .locked(until: until)
        }
        guard var factor = rows.factors[request.factorID], factor.userID == credential.userID else {
            return .factorNotFound
        }
        if let last = factor.lastAcceptedStep, last >= request.step {
            return .stepRejected(lastAcceptedStep: UInt64(clamping: last))
        }
        factor.lastAcceptedStep = request.step
        rows.factors[request.factorID] = factor
        rows.spentCredentials.insert(credential.id)
        if failures != .zero {
            rows.failures[request.factorID] = .zero
        }
        completed.append(
            Completed(
                credential: credential, factorID: request.factorID, step: request.step, clearsFailures: failures != .zero,
                session: request.session, sessionCap: max(1, request.maximumSessionsPerUser), audit: request.audit))
        return .completed
    }
}
