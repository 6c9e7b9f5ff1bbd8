package import OTPEnrollment

/// One caller's `EnrollmentStore.recordSignInFailure`, as a durable store's set of wrong codes
/// holds it: each request counted in turn, as ``SignInCompletionRequest`` says for completions
/// (``SignInFailureBatch`` for PostgreSQL).
package struct SignInFailureRequest: Sendable {
    package var credential: PendingSignInRecord
    package var failureKey: String
    package var time: Int64
    package var limit: Int
    package var lockout: Int64

    package init(credential: PendingSignInRecord, failureKey: String, time: Int64, limit: Int, lockout: Int64) {
        self.credential = credential
        self.failureKey = failureKey
        self.time = time
        self.limit = limit
        self.lockout = lockout
    }
}
