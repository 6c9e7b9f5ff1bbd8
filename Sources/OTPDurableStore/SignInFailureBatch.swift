package import OTPAuthentication

/// Many wrong second-factor codes counted together: what a durable store reads for them, in one
/// set-based statement, and what it then writes, in one more, all in one transaction.
///
/// The rules are those of `AuthStore.recordSignInFailure`, applied to the requests one after
/// the other in the order given, each seeing what the ones before it changed (a failure counted,
/// a lock started), as ``SignInCompletionBatch`` does for completions.
package struct SignInFailureBatch: Sendable {
    /// One caller's `recordSignInFailure`.
    package struct Request: Sendable {
        package var credential: PendingSignInRecord
        package var failureKey: String
        package var time: Int64
        package var limit: Int
        package var lockout: Int64
        /// The audit event a counted failure writes, taken from the caller's task
        /// (`AuditTrail.pending`) before the request joins a batch run by another task.
        package var audit: AuditEvent?

        package init(
            credential: PendingSignInRecord, failureKey: String, time: Int64, limit: Int, lockout: Int64,
            audit: AuditEvent? = AuditTrail.pending.first
        ) {
            self.credential = credential
            self.failureKey = failureKey
            self.time = time
            self.limit = limit
            self.lockout = lockout
            self.audit = audit
        }
    }

    /// What the database holds for the batch's credentials and counters; absent keys have no row.
    package struct Rows: Sendable {
        /// The batch's credentials that were spent already.
        package var spentCredentials: Set<String> = []
        package var failures: [String: FailureCounter] = [:]

        package init() {}
    }

    /// Each request's outcome, in the order of the requests.
    package private(set) var outcomes: [SignInFailure] = []
    /// The audit events of the counted failures, in the order of the requests.
    package private(set) var auditEvents: [AuditEvent] = []
    /// The counters to store, each once, with its value after the whole batch and the time of
    /// its last failure counted.
    package private(set) var counters: [(key: String, counter: FailureCounter, countedAt: Int64)] = []

    /// Decides `requests` against `rows`.
    package init(_ requests: [Request], rows: Rows) {
        var rows = rows
        var countedAt: [String: Int64] = [:]
        for request in requests {
            let outcome = record(request, rows: &rows)
            if case .counted = outcome {
                countedAt[request.failureKey] = max(countedAt[request.failureKey] ?? .min, request.time)
                if let audit = request.audit { auditEvents.append(audit) }
            }
            outcomes.append(outcome)
        }
        counters = countedAt.map { (key: $0.key, counter: rows.failures[$0.key] ?? .zero, countedAt: $0.value) }
    }

    /// What the batch reads: its credentials (each once) and its failure counters' keys.
    package static func keys(of requests: [Request]) -> (credentials: [PendingSignInRecord], failureKeys: [String]) {
        (Array(Set(requests.map(\.credential))), Array(Set(requests.map(\.failureKey))))
    }

    private mutating func record(_ request: Request, rows: inout Rows) -> SignInFailure {
        let credential = request.credential
        if let refusal = SignInFailure(refusing: credential, spent: rows.spentCredentials.contains(credential.id), at: request.time) {
            return refusal
        }
        let failures = rows.failures[request.failureKey] ?? .zero
        if let until = failures.lockEnd(at: request.time) {
            return .locked(until: until)
        }
        let counter = failures.recordingFailure(at: request.time, limit: request.limit, lockout: request.lockout)
        rows.failures[request.failureKey] = counter
        return .counted(counter)
    }
}
