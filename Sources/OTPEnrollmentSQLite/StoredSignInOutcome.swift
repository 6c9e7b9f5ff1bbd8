internal import OTPDurableStore
internal import OTPEnrollment

// The store's triggers decide sets of sign-in steps and name each outcome in a row: the
// outcome's case name, with its one number.

extension SignInCompletion {
    /// The completion a row names: the case (`completed`, `credentialNotFound`,
    /// `credentialExpired` with the expiry, `locked` with the lock's end, `factorNotFound`,
    /// `stepRejected` with the last accepted step); `nil` for anything else.
    init?(storedOutcome outcome: String, detail: Int64?) {
        switch (outcome, detail) {
        case ("completed", _): self = .completed
        case ("credentialNotFound", _): self = .credentialNotFound
        case ("credentialExpired", let expiresAt?): self = .credentialExpired(expiresAt: expiresAt)
        case ("locked", let until?): self = .locked(until: until)
        case ("factorNotFound", _): self = .factorNotFound
        case ("stepRejected", let last?): self = .stepRejected(lastAcceptedStep: UInt64(clamping: last))
        default: return nil
        }
    }
}

extension SignInFailure {
    /// The wrong code's outcome a row names: the case (`counted` with the count and the
    /// lock's end, if it locked; `credentialNotFound`, `credentialExpired` with the expiry,
    /// `locked` with the lock's end); `nil` for anything else.
    init?(storedOutcome outcome: String, detail: Int64?, failures: Int64?) {
        switch (outcome, detail, failures) {
        case ("counted", let lockedUntil, let failures?):
            self = .counted(FailureCounter(consecutiveFailures: Int(failures), lockedUntil: lockedUntil))
        case ("credentialNotFound", _, _): self = .credentialNotFound
        case ("credentialExpired", let expiresAt?, _): self = .credentialExpired(expiresAt: expiresAt)
        case ("locked", let until?, _): self = .locked(until: until)
        default: return nil
        }
    }
}

extension Sequence where Element: StoredRow {
    /// The outcomes of a set of `count` sign-in steps decided in SQL, in the order of the
    /// requests, from rows of `seq` (the request's index from zero), `outcome`, `detail` and
    /// `failures`, read by `outcome` (`SignInCompletion.init(storedOutcome:detail:)` or its
    /// counterpart for wrong codes). A row for no request, an unknown outcome, or a request
    /// without one is the store's error `invalid(detail)`: the set's statement did not do what it
    /// says.
    func signInOutcomes<Outcome>(
        count: Int, invalid: (_ detail: String) -> Element.Failure,
        _ outcome: (_ outcome: String, _ detail: Int64?, _ failures: Int64?) -> Outcome?
    ) throws(Element.Failure) -> [Outcome] {
        var outcomes = [Outcome?](repeating: nil, count: count)
        for row in self {
            let seq = Int(try row.integer("seq", of: "a sign-in outcome"))
            let name = try row.text("outcome", of: "a sign-in outcome")
            guard outcomes.indices.contains(seq) else { throw invalid("a sign-in outcome for no request (\(seq))") }
            guard
                let decided = outcome(
                    name, try row.optionalInteger("detail", of: "a sign-in outcome"), try row.optionalInteger("failures", of: "a sign-in outcome"))
            else { throw invalid("an unknown sign-in outcome \(name)") }
            outcomes[seq] = decided
        }
        return try outcomes.enumerated().map { seq, outcome throws(Element.Failure) in
            guard let outcome else { throw invalid("no outcome for request \(seq)") }
            return outcome
        }
    }
}
