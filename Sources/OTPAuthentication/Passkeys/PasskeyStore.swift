/// Passkeys and the challenges of their ceremonies.
///
/// A requirement of ``AuthStore``. Deleting an account deletes its passkeys and challenges;
/// ``AuthStore/purgeExpired(before:failuresCountedBefore:)`` deletes expired challenges.
public protocol PasskeyStore: Sendable {
    /// Stores the challenge of a ceremony that started; its digest is new (of 32 random bytes).
    func insertPasskeyChallenge(_ challenge: PasskeyChallengeRecord) async throws

    /// Deletes and returns the challenge with `digest`, expired or not: of concurrent calls, at
    /// most one gets it. `nil` when there is none (taken, purged, or never made).
    func takePasskeyChallenge(digest: [UInt8]) async throws -> PasskeyChallengeRecord?

    /// The passkeys of `userID`, oldest first.
    func passkeys(userID: String) async throws -> [PasskeyRecord]

    /// The passkey with `credentialID`, whoever's it is.
    func passkey(credentialID: [UInt8]) async throws -> PasskeyRecord?

    /// Stores `passkey` in one atomic operation, checking in this order: its account exists
    /// (``PasskeyInsertion/accountNotFound``; a second factor, as a TOTP factor, needs none), no passkey has its credential id
    /// (``PasskeyInsertion/credentialInUse``), its user has fewer than `maximumPerUser`
    /// (``PasskeyInsertion/limitReached``): passkeys that sign in alone, or, for a second factor
    /// (with an ``PasskeyRecord/enrollmentID``), second factors of every kind, as
    /// ``FactorStore/finalizeEnrollment(pendingID:factor:maximumFactorCount:)`` counts them.
    func insertPasskey(_ passkey: PasskeyRecord, maximumPerUser: Int) async throws -> PasskeyInsertion

    /// Records a verified assertion when the passkey's stored counter is still
    /// `previousSignCount` (a compare-and-set, so of two assertions verified against one count
    /// at most one is recorded): its counter, backup state and time, and user verification when
    /// it verified the user. Whether it was recorded (`false` when the count moved or the passkey is gone).
    func recordPasskeyUse(credentialID: [UInt8], previousSignCount: UInt32, use: PasskeyUse) async throws -> Bool

    /// Renames the passkey with `credentialID` when it is `userID`'s; whether it was.
    func renamePasskey(credentialID: [UInt8], userID: String, name: String) async throws -> Bool

    /// Deletes the passkey with `credentialID` when it is `userID`'s; whether it was.
    func removePasskey(credentialID: [UInt8], userID: String) async throws -> Bool
}
