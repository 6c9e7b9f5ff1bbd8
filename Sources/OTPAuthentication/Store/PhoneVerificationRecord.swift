internal import OTPCore

/// A code sent by text message and not used yet (what Firebase's `sessionInfo` stands for): what it
/// is for, whose it is, the keyed digest of the code, and the wrong codes it has taken.
public struct PhoneVerificationRecord: Sendable, Hashable {
    /// What the code proves possession of the number for.
    public enum Purpose: String, Sendable, Hashable {
        /// Enrolling ``PhoneVerificationRecord/phoneNumber`` as a new factor.
        case enrollment
        /// Completing the sign-in ``PhoneVerificationRecord/credentialID`` with the factor
        /// ``PhoneVerificationRecord/enrollmentID``.
        case signIn = "sign-in"
        /// Signing in with ``PhoneVerificationRecord/phoneNumber`` as the first factor, or linking
        /// it to an account; ``PhoneVerificationRecord/userID`` is empty.
        case firstFactor = "first-factor"
    }

    /// The verification id handed to the client; unique.
    public var id: String
    /// What the code is for.
    public var purpose: Purpose
    /// The user the code was sent for.
    public var userID: String
    /// For a sign-in: the phone factor the code was sent to.
    public var enrollmentID: String?
    /// For a sign-in: the pending sign-in credential the code completes.
    public var credentialID: String?
    /// The number the code was sent to, in E.164 form.
    public var phoneNumber: String
    /// The keyed digest of the code (never the code itself).
    public var codeDigest: [UInt8]
    /// When the code was sent.
    public var createdAt: Int64
    /// The last second at which the code may be used.
    public var expiresAt: Int64
    /// Wrong codes offered so far.
    public var failedAttempts: Int

    /// Creates a record.
    public init(
        id: String, purpose: Purpose, userID: String, enrollmentID: String?, credentialID: String?, phoneNumber: String,
        codeDigest: [UInt8], createdAt: Int64, expiresAt: Int64, failedAttempts: Int
    ) {
        self.id = id
        self.purpose = purpose
        self.userID = userID
        self.enrollmentID = enrollmentID
        self.credentialID = credentialID
        self.phoneNumber = phoneNumber
        self.codeDigest = codeDigest
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.failedAttempts = failedAttempts
    }

    /// The outcome of offering the codes with `digests` at `time`, and the record to keep after it
    /// (`nil`: delete it): the rule every store applies inside its own atomic step. A match spends
    /// the code; a wrong code counts, and the one that reaches `maximumAttempts` ends the
    /// verification, as its expiry does.
    public func checking(_ digests: [[UInt8]], at time: Int64, maximumAttempts: Int) -> (kept: PhoneVerificationRecord?, outcome: PhoneCodeCheck) {
        guard time <= expiresAt else { return (nil, .expired) }
        if ConstantTime.contains(digests, codeDigest) { return (nil, .matched) }
        var counted = self
        counted.failedAttempts += 1
        guard counted.failedAttempts < maximumAttempts else { return (nil, .exhausted) }
        return (counted, .wrong(attemptsLeft: maximumAttempts - counted.failedAttempts))
    }
}

/// The outcome of ``PhoneVerificationRecord/checking(_:at:maximumAttempts:)``.
public enum PhoneCodeCheck: Sendable, Hashable {
    /// The code matched; the verification is spent.
    case matched
    /// The code did not match; `attemptsLeft` more may be tried.
    case wrong(attemptsLeft: Int)
    /// The code did not match and was the last attempt allowed; the verification is gone.
    case exhausted
    /// The verification expired; it is gone.
    case expired
}
