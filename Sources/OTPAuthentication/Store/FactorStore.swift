public import OTPSealing

/// Second factors and their secrets: pending enrollments, enrolled TOTP and phone factors with
/// their accepted steps, the verifications of codes sent by text message, and recovery codes.
///
/// A requirement of ``AuthStore``. Records carry secrets as `OTPSecret`; a durable store
/// seals them at rest.
public protocol FactorStore: Sendable {
    /// Stores a started enrollment. Ids are unique: the service never inserts the same id twice.
    func insertPendingEnrollment(_ record: PendingEnrollmentRecord) async throws

    /// The pending enrollment with `id`, or `nil`.
    func pendingEnrollment(id: String) async throws -> PendingEnrollmentRecord?

    /// Deletes the pending enrollment with `id`, if any (its secret must not survive).
    func removePendingEnrollment(id: String) async throws

    /// Atomically turns a pending enrollment into an enrolled factor: when the pending enrollment
    /// `pendingID` exists and `factor.userID` has fewer than `maximumFactorCount` factors (TOTP and
    /// phone together), deletes the pending enrollment and inserts `factor`; otherwise changes
    /// nothing.
    func finalizeEnrollment(
        pendingID: String,
        factor: FactorRecord,
        maximumFactorCount: Int
    ) async throws -> EnrollmentFinalization

    /// The factors of `userID`, oldest first (by ``FactorRecord/enrolledAt``, then ``FactorRecord/id``).
    func factors(userID: String) async throws -> [FactorRecord]

    /// The factor with `id`, or `nil`.
    func factor(id: String) async throws -> FactorRecord?

    /// Deletes the factor `id` when it belongs to `userID`, with its accepted step and failure
    /// counter, and returns it; `nil` when there is no such factor of that user.
    func removeFactor(id: String, userID: String) async throws -> FactorRecord?

    /// Sets the display name of the TOTP factor `id` when it belongs to `userID` (`nil` removes
    /// it): whether there was such a factor.
    func renameFactor(id: String, userID: String, displayName: String?) async throws -> Bool

    /// Compare-and-set of the factor's highest accepted step: stores `step` only when the factor
    /// exists and `step` is strictly greater than its ``FactorRecord/lastAcceptedStep`` (or it has
    /// none). Of any number of concurrent calls with the same step, exactly one is accepted.
    /// Steps come from Unix times with T0 = 0, so they never exceed `Int64.max` (a SQL store may keep
    /// them in a signed 64-bit column).
    func recordAcceptedStep(_ step: UInt64, factorID: String) async throws -> StepAcceptance

    /// The phone factors of `userID`, oldest first (by ``PhoneFactorRecord/enrolledAt``, then id).
    func phoneFactors(userID: String) async throws -> [PhoneFactorRecord]

    /// The phone factor with `id`, or `nil`.
    func phoneFactor(id: String) async throws -> PhoneFactorRecord?

    /// Deletes the phone factor `id` when it belongs to `userID`, with its failure counter, and
    /// returns it; `nil` when there is no such factor of that user.
    func removePhoneFactor(id: String, userID: String) async throws -> PhoneFactorRecord?

    /// Sets the display name of the phone factor `id` when it belongs to `userID` (`nil` removes
    /// it): whether there was such a factor.
    func renamePhoneFactor(id: String, userID: String, displayName: String?) async throws -> Bool

    /// Stores the verification of a code about to be sent.
    func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws

    /// The verification `id`, or `nil`.
    func phoneVerification(id: String) async throws -> PhoneVerificationRecord?

    /// Deletes the verification `id`, if any (its code could not be sent).
    func removePhoneVerification(id: String) async throws

    /// Enrolls the number of an enrollment verification, in one atomic operation, checking in
    /// this order:
    /// 1. the verification `verificationID` exists, is for an enrollment and belongs to `userID`
    ///    (otherwise ``PhoneEnrollmentFinalization/verificationNotFound``);
    /// 2. the user has no phone factor with its number
    ///    (``PhoneEnrollmentFinalization/numberAlreadyEnrolled``);
    /// 3. the user has fewer than `maximumFactorCount` factors, TOTP and phone together
    ///    (``PhoneEnrollmentFinalization/factorLimitReached``);
    /// 4. the code, as ``PhoneVerificationRecord/checking(_:at:maximumAttempts:)`` says
    ///    (``PhoneEnrollmentFinalization/wrongCode(attemptsLeft:)`` counts the attempt;
    ///    ``PhoneEnrollmentFinalization/verificationExpired`` deletes the verification).
    ///
    /// When all hold it deletes the verification and inserts the factor `factorID` with the
    /// verification's number; a refusal at 1–3 changes nothing.
    func finalizePhoneEnrollment(
        verificationID: String,
        userID: String,
        codeDigests: [[UInt8]],
        at time: Int64,
        maximumAttempts: Int,
        factorID: String,
        displayName: String?,
        maximumFactorCount: Int
    ) async throws -> PhoneEnrollmentFinalization

    /// Replaces every recovery code of `userID` with `digests` in one atomic step: the old set
    /// stops working as the new one starts.
    func replaceRecoveryCodes(userID: String, digests: [[UInt8]]) async throws

    /// The number of unused recovery codes of `userID`.
    func recoveryCodeCount(userID: String) async throws -> Int

    /// Stores the factors an import brings for `userID` (their ids new), all or none, in one
    /// atomic operation: `false`, storing nothing, when they would take the user past
    /// `maximumFactorCount` factors of every kind together.
    func importFactors(userID: String, totp: [FactorRecord], phone: [PhoneFactorRecord], maximumFactorCount: Int) async throws -> Bool

    /// The keys the service digests one-time codes under (recovery codes) before this store sees
    /// them: a durable store gives its sealing keys, so that stored digests outlive the process and
    /// a copy of the store cannot test guesses. The default, `nil`, has the service make a random key
    /// that lasts as long as the process, which suits a store that lasts no longer.
    var codeDigestKeys: SecretSealer? { get }
}

extension FactorStore {
    public var codeDigestKeys: SecretSealer? { nil }
}
