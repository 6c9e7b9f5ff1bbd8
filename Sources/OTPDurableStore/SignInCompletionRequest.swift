package import OTPEnrollment

/// One caller's `EnrollmentStore.completeSignIn`, as a durable store's set of completions holds
/// it: the set is decided by the protocol's rules, each request in turn, so that each outcome is
/// the one it would have had alone (in SQLite's trigger; in ``SignInCompletionBatch`` for
/// PostgreSQL).
package struct SignInCompletionRequest: Sendable {
    package var credential: PendingSignInRecord
    package var factorID: String
    /// The matched time step, as the stores keep it (a signed 64-bit column).
    package var step: Int64
    package var time: Int64
    package var session: SessionRecord
    package var maximumSessionsPerUser: Int

    package init(
        credential: PendingSignInRecord, factorID: String, step: Int64, time: Int64, session: SessionRecord, maximumSessionsPerUser: Int
    ) {
        self.credential = credential
        self.factorID = factorID
        self.step = step
        self.time = time
        self.session = session
        self.maximumSessionsPerUser = maximumSessionsPerUser
    }
}
