public import OTPSealing
internal import SQLiteNIO

extension SQLiteEnrollmentStore {
    /// Refuses to start when a row is sealed under a key the sealer lacks, and opens one row per
    /// key, so a wrong or missing key is an error at start-up rather than at the first sign-in.
    func checkSealingKeys() async throws(SQLiteEnrollmentStoreError) {
        try await locked { () throws(SQLiteEnrollmentStoreError) in
            let rows = try await self.execute("SELECT key_id FROM factors UNION SELECT key_id FROM pending_enrollments")
            var missing: [SealingKeyID] = []
            for row in rows {
                let text = try RowReader(row: row).text("key_id")
                guard let keyID = SealingKeyID(hex: text) else {
                    throw .invalidRecord(recordID: "key \(text)", detail: "not a key id")
                }
                guard self.sealer.keyIDs.contains(keyID) else {
                    missing.append(keyID)
                    continue
                }
                // One row per key proves the key opens what it claims to have sealed.
                let factor = try await self.execute("SELECT \(Self.factorColumns) FROM factors WHERE key_id = ? LIMIT 1", [.text(text)])
                if let row = factor.first { _ = try self.factorRecord(row) }
                let pending = try await self.execute("SELECT \(Self.pendingColumns) FROM pending_enrollments WHERE key_id = ? LIMIT 1", [.text(text)])
                if let row = pending.first { _ = try self.pendingRecord(row) }
            }
            guard missing.isEmpty else {
                throw .missingSealingKeys(path: self.path, keyIDs: missing.sorted { $0.rawValue < $1.rawValue }, currentKeyID: self.sealer.currentKeyID)
            }
        }
    }

    /// The ids of the keys that stored secrets are sealed under, with how many rows use each.
    public func sealingKeyUsage() async throws(SQLiteEnrollmentStoreError) -> [SealingKeyID: Int] {
        let rows = try await locked { () throws(SQLiteEnrollmentStoreError) in
            try await self.execute("""
                SELECT key_id, count(*) AS n FROM (
                    SELECT key_id FROM factors UNION ALL SELECT key_id FROM pending_enrollments
                ) GROUP BY key_id
                """)
        }
        var usage: [SealingKeyID: Int] = [:]
        for row in rows {
            if let text = row.column("key_id")?.string, let id = SealingKeyID(hex: text) {
                usage[id] = Int(row.column("n")?.integer ?? 0)
            }
        }
        return usage
    }

    /// Re-seals every secret not sealed under the sealer's current key, and returns how many it moved.
    ///
    /// Run it after making a new key current with the old one as a previous key; when it returns,
    /// no row needs the old key (``sealingKeyUsage()`` shows it) and the old key can be dropped.
    /// Works in batches of `batchSize` rows, each batch one transaction.
    @discardableResult
    public func resealAll(batchSize: Int = 200) async throws(SQLiteEnrollmentStoreError) -> Int {
        let current = sealer.currentKeyID.description
        var moved = 0
        for table in ["factors", "pending_enrollments"] {
            while true {
                let count = try await transaction { () throws(SQLiteEnrollmentStoreError) -> Int in
                    let rows = try await self.execute(
                        "SELECT id, sealed_secret FROM \(table) WHERE key_id <> ? LIMIT ?",
                        [.text(current), .integer(max(1, batchSize))]
                    )
                    for row in rows {
                        let id = try RowReader(row: row).text("id")
                        guard let buffer = row.column("sealed_secret")?.blob else {
                            throw .invalidRecord(recordID: id, detail: "no sealed secret")
                        }
                        let resealed: SealedSecret
                        do throws(SealingError) {
                            let stored = try SealedSecret(bytes: Array(buffer.readableBytesView))
                            guard let fresh = try self.sealer.reseal(stored, enrollmentID: id) else { continue }
                            resealed = fresh
                        } catch {
                            throw .unusableSecret(recordID: id, error)
                        }
                        try await self.execute(
                            "UPDATE \(table) SET sealed_secret = ?, key_id = ? WHERE id = ?",
                            [.blob(ByteBuffer(bytes: resealed.bytes)), .text(current), .text(id)]
                        )
                    }
                    return rows.count
                }
                moved += count
                if count == 0 { break }
            }
        }
        return moved
    }
}
