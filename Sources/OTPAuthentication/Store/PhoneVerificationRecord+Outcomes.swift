// What a phone code's check means to the operation that spends it: the tail of the rules every
// store applies (the durable stores on `DurableTransaction`, the in-memory store under its lock),
// written once.
extension PhoneVerificationRecord {
    /// An enrollment's check of the code, once the verification, the number and the factor limit
    /// passed: the record to keep (`nil`: delete it) and the outcome, which holds the new factor
    /// `factorID` when the code matched.
    package func enrolling(
        _ digests: [[UInt8]], at time: Int64, maximumAttempts: Int, factorID: String, displayName: String?
    ) -> (kept: PhoneVerificationRecord?, outcome: PhoneEnrollmentFinalization) {
        let (kept, check) = checking(digests, at: time, maximumAttempts: maximumAttempts)
        switch check {
        case .matched:
            let factor = PhoneFactorRecord(id: factorID, userID: userID, displayName: displayName, enrolledAt: time, phoneNumber: phoneNumber)
            return (kept, .enrolled(factor))
        case .wrong(let attemptsLeft): return (kept, .wrongCode(attemptsLeft: attemptsLeft))
        case .exhausted, .expired: return (kept, .verificationExpired)
        }
    }

    /// A sign-in's check of the code, once the credential, the verification, the lock and the
    /// factor passed: the record to keep (`nil`: delete it) and the refusal, `nil` when the code
    /// matched and the sign-in completes.
    package func signingIn(_ digests: [[UInt8]], at time: Int64, maximumAttempts: Int) -> (kept: PhoneVerificationRecord?, refusal: SignInCompletion?)
    {
        let (kept, check) = checking(digests, at: time, maximumAttempts: maximumAttempts)
        switch check {
        case .matched: return (kept, nil)
        case .wrong: return (kept, .codeRejected)
        case .exhausted, .expired: return (kept, .verificationExpired)
        }
    }
}
