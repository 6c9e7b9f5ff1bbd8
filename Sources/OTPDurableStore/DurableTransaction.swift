package import OTPAuthentication

/// The reads and writes a durable store offers inside one of its transactions: what the
/// operations that span concerns (a recovery-code or phone sign-in, a phone enrollment, a
/// first-factor code) are written in, once for every durable store, in
/// `DurableTransaction+Operations.swift`.
///
/// Each method runs in the caller's transaction; what it reads to decide on a write it locks (or
/// the backend serialises writers, as SQLite's `BEGIN IMMEDIATE` does). The in-memory store
/// applies the same rules under its lock, synchronously, in its own code: it cannot await inside
/// its lock, and its speed is the reference the others are measured against.
package protocol DurableTransaction {
    associatedtype Failure: Error

    /// Runs `body` when `credential` can still complete a sign-in at `time` (unspent, unexpired),
    /// and spends it when `body` completes; otherwise returns the refusal and runs nothing.
    func completing(
        _ credential: PendingSignInRecord, at time: Int64, _ body: () async throws(Failure) -> SignInCompletion
    ) async throws(Failure) -> SignInCompletion
    /// The failure counter under `key`.
    func failureCounter(key: String) async throws(Failure) -> FailureCounter
    /// Deletes the failure counter under `key`.
    func resetFailures(key: String) async throws(Failure)
    /// Stores `record` and ends the user's oldest sessions beyond `maximumPerUser`; how many ended.
    @discardableResult
    func insertSession(_ record: SessionRecord, maximumPerUser: Int) async throws(Failure) -> Int
    /// Takes the lock every change of `userID`'s factors takes, where the backend needs one for
    /// the factor limit to hold across writers.
    func lockFactors(of userID: String) async throws(Failure)
    /// How many factors `userID` has, TOTP and phone together.
    func factorCount(of userID: String) async throws(Failure) -> Int
    /// Whether `userID` has the phone factor `id`.
    func hasPhoneFactor(id: String, userID: String) async throws(Failure) -> Bool
    /// Whether `userID` has a phone factor with `number`.
    func hasPhoneFactor(number: String, userID: String) async throws(Failure) -> Bool
    /// Stores a new phone factor.
    func insertPhoneFactor(_ factor: PhoneFactorRecord) async throws(Failure)
    /// Stores a new TOTP factor, its secret sealed.
    func insertFactor(_ factor: FactorRecord) async throws(Failure)
    /// The verification `id`, locked until the transaction ends.
    func lockedPhoneVerification(id: String) async throws(Failure) -> PhoneVerificationRecord?
    /// Writes back a verification after a check: its counted attempt, or, when `kept` is `nil`,
    /// its deletion.
    func keepPhoneVerification(_ kept: PhoneVerificationRecord?, id: String) async throws(Failure)
    /// Deletes the first of `userID`'s unused recovery codes whose digest is among `digests`;
    /// whether one was.
    func spendRecoveryCode(userID: String, digests: [[UInt8]]) async throws(Failure) -> Bool
    /// Updates account `id` as `AccountStore.updateAccount(id:changes:)` does, whole or not at all,
    /// within the transaction.
    func updateAccount(id: String, changes: AccountChanges) async throws(Failure) -> AccountUpdate
    /// The email action with `digest`, locked until the transaction ends.
    func lockedEmailAction(digest: [UInt8]) async throws(Failure) -> EmailActionRecord?
    /// Deletes the email action with `digest`.
    func removeEmailAction(digest: [UInt8]) async throws(Failure)
    /// The passkey factor `enrollmentID` of `userID`, locked until the transaction ends.
    func lockedPasskeyFactor(enrollmentID: String, userID: String) async throws(Failure) -> PasskeyRecord?
    /// `PasskeyStore.recordPasskeyUse(credentialID:previousSignCount:use:)` within the transaction.
    func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws(Failure) -> Bool
    /// Writes the pending audit events of the operation running now (`AuditTrail.pending`):
    /// called where the operation has made its change.
    func recordAudit() async throws(Failure)
}
