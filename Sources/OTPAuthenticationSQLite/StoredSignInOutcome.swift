internal import OTPAuthentication

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
