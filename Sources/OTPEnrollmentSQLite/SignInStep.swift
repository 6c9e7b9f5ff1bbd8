internal import OTPDurableStore
internal import OTPEnrollment

/// One of the two writes of a sign-in, as the SQLite store's one batcher of sign-ins takes them:
/// concurrent first steps and completions run in one set, so that a set costs one transaction's
/// trips to the connection's thread rather than two sets costing one each.
enum SignInStep: Sendable {
    /// ``SQLiteEnrollmentStore/factorsStartingSignIn(_:)``.
    case start(PendingSignInRecord)
    /// ``SQLiteEnrollmentStore/completeSignIn(credentialID:factorID:step:at:session:maximumSessionsPerUser:)``.
    case completion(SignInCompletionBatch.Request)

    /// What a set answers a step with: the kind of the step.
    enum Outcome: Sendable {
        case started(SignInFactors)
        case completed(SignInCompletion)
    }
}
