package import OTPSealing

/// The convention every durable store follows for rows that hold a sealed secret, and the
/// operations it implements so that ``SealedSecretTable/checkSealingKeys(with:)`` and
/// ``SealedSecretTable/resealAll(with:batchSize:)`` work the same on every store.
///
/// Each such row has its record id, the ``OTPSealing/SealedSecret`` bytes, and a key-id column
/// holding the ``OTPSealing/SealingKeyID`` as 16 lowercase hexadecimal characters (its
/// `description`), indexed, so that the rows under one key are found without opening any. The
/// sealed value carries its key id too, and the value is the truth: the column is an index of it.
/// A store keeps the two in agreement, and repairs the column when something outside OTPKit
/// (a half-applied manual fix, another tool) left them apart.
package protocol SealedSecretTable: Sendable {
    /// The store's own error type.
    associatedtype Failure: Error

    /// Sets the key-id column of every row whose column disagrees with the key id inside its
    /// sealed value to that key id; returns how many rows changed.
    func repairKeyIDColumns() async throws(Failure) -> Int

    /// The key ids in use, with how many rows each.
    func keyIDUsage() async throws(Failure) -> [SealingKeyID: Int]

    /// Opens one row sealed under `keyID` (any one, in every table that has one), so that a key
    /// that does not open what it claims to have sealed is found at start-up.
    func openOneRow(sealedUnder keyID: SealingKeyID) async throws(Failure)

    /// In one transaction: reads up to `limit` rows whose key-id column is not `current`, passes
    /// each record id and sealed value to `reseal`, and stores what it returns with the column set
    /// to `current`; when it returns `nil` (the value is under `current` already) sets just the
    /// column. Returns the number of rows read and the number whose value was rewritten.
    func resealBatch(
        notUnder current: SealingKeyID,
        limit: Int,
        _ reseal: @escaping @Sendable (_ recordID: String, _ sealed: SealedSecret) throws(Failure) -> SealedSecret?
    ) async throws(Failure) -> (read: Int, rewritten: Int)

    /// The error for rows sealed under keys the sealer lacks.
    func missingSealingKeys(_ keyIDs: [SealingKeyID], currentKeyID: SealingKeyID) -> Failure

    /// The error for a sealed value of `recordID` that cannot be re-sealed.
    func unusableSecret(recordID: String, _ error: SealingError) -> Failure
}

extension SealedSecretTable {
    /// The start-up check: repairs key-id columns that disagree with their values, refuses to start
    /// when a row is sealed under a key `sealer` lacks, and opens one row per key, so that a wrong
    /// or missing key is an error at start-up rather than at the first sign-in.
    package func checkSealingKeys(with sealer: SecretSealer) async throws(Failure) {
        _ = try await repairKeyIDColumns()
        let inUse = try await keyIDUsage().keys.sorted { $0.rawValue < $1.rawValue }
        let missing = inUse.filter { !sealer.keyIDs.contains($0) }
        guard missing.isEmpty else { throw missingSealingKeys(missing, currentKeyID: sealer.currentKeyID) }
        for keyID in inUse {
            try await openOneRow(sealedUnder: keyID)
        }
    }

    /// Re-seals every secret not sealed under `sealer`'s current key, in batches of `batchSize`
    /// rows, each batch one transaction; returns how many values it rewrote.
    ///
    /// A row whose column named an old key while its value was under the current key already is
    /// set right and not counted. Every batch leaves each row it read under the current key, so
    /// the loop ends.
    package func resealAll(with sealer: SecretSealer, batchSize: Int) async throws(Failure) -> Int {
        var rewritten = 0
        while true {
            let batch = try await resealBatch(notUnder: sealer.currentKeyID, limit: max(1, batchSize)) {
                (recordID, sealed) throws(Failure) -> SealedSecret? in
                do throws(SealingError) {
                    return try sealer.reseal(sealed, enrollmentID: recordID)
                } catch {
                    throw unusableSecret(recordID: recordID, error)
                }
            }
            rewritten += batch.rewritten
            if batch.read == 0 { return rewritten }
        }
    }
}
