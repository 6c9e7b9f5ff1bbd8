internal import OTPDurableStore
public import OTPSealing
internal import SQLiteNIO

// The sealed-secret convention of OTPDurableStore on SQLite: the key-id column `key_id`, the
// sealed value in `sealed_secret`, in the tables below.

extension SQLiteAuthStore {
    /// The store's tables of sealed secrets, for OTPDurableStore's start-up check and re-sealing.
    struct SealedTables: SealedSecretTable {
        let store: SQLiteAuthStore

        /// The tables with a sealed secret per row.
        private static var tables: [String] { ["factors", "pending_enrollments", "store_secrets"] }

        /// The key id inside a sealed value, in the column's form: format byte, then the id's bytes.
        private static var keyIDOfValue: String {
            "lower(hex(substr(sealed_secret, 2, \(SealingKeyID.byteCount))))"
        }

        func repairKeyIDColumns() async throws(SQLiteAuthStoreError) -> Int {
            try await store.transaction { () throws(SQLiteAuthStoreError) -> Int in
                var repaired = 0
                for table in Self.tables {
                    repaired += try await store.execute(
                        """
                        UPDATE \(table) SET key_id = \(Self.keyIDOfValue)
                        WHERE length(sealed_secret) > \(SealingKeyID.byteCount + 1) AND key_id IS NOT \(Self.keyIDOfValue)
                        RETURNING id
                        """
                    ).count
                }
                return repaired
            }
        }

        func keyIDUsage() async throws(SQLiteAuthStoreError) -> [SealingKeyID: Int] {
            let rows = try await store.locked { () throws(SQLiteAuthStoreError) in
                try await store.execute(
                    "SELECT key_id, count(*) AS n FROM ("
                        + Self.tables.map { "SELECT key_id FROM \($0)" }.joined(separator: " UNION ALL ")
                        + ") GROUP BY key_id"
                )
            }
            var usage: [SealingKeyID: Int] = [:]
            for row in rows {
                let text = try RowReader(row: row).text("key_id")
                guard let id = SealingKeyID(hex: text) else {
                    throw .invalidRecord(recordID: "key \(text)", detail: "not a key id")
                }
                usage[id] = Int(row.column("n")?.integer ?? 0)
            }
            return usage
        }

        func openOneRow(sealedUnder keyID: SealingKeyID) async throws(SQLiteAuthStoreError) {
            try await store.locked { () throws(SQLiteAuthStoreError) in
                for table in Self.tables {
                    let rows = try await store.execute("SELECT id, sealed_secret FROM \(table) WHERE key_id = ? LIMIT 1", [.text(keyID.description)])
                    if let row = rows.first {
                        let reader = RowReader(row: row)
                        _ = try store.openSecret(reader, recordID: try reader.text("id"))
                    }
                }
            }
        }

        func resealBatch(
            notUnder current: SealingKeyID,
            limit: Int,
            _ reseal: @escaping @Sendable (String, SealedSecret) throws(SQLiteAuthStoreError) -> SealedSecret?
        ) async throws(SQLiteAuthStoreError) -> (read: Int, rewritten: Int) {
            let currentID = SQLiteData.text(current.description)
            return try await store.transaction { () throws(SQLiteAuthStoreError) -> (read: Int, rewritten: Int) in
                var read = 0
                var rewritten = 0
                for table in Self.tables where read < limit {
                    let rows = try await store.execute(
                        "SELECT id, sealed_secret FROM \(table) WHERE key_id <> ? LIMIT ?", [currentID, .integer(limit - read)]
                    )
                    read += rows.count
                    for row in rows {
                        let id = try RowReader(row: row).text("id")
                        guard let buffer = row.column("sealed_secret")?.blob else {
                            throw .invalidRecord(recordID: id, detail: "no sealed secret")
                        }
                        let stored: SealedSecret
                        do throws(SealingError) {
                            stored = try SealedSecret(bytes: Array(buffer.readableBytesView))
                        } catch {
                            throw .unusableSecret(recordID: id, error)
                        }
                        if let fresh = try reseal(id, stored) {
                            try await store.execute(
                                "UPDATE \(table) SET sealed_secret = ?, key_id = ? WHERE id = ?",
                                [.blob(ByteBuffer(bytes: fresh.bytes)), currentID, .text(id)]
                            )
                            rewritten += 1
                        } else {
                            try await store.execute("UPDATE \(table) SET key_id = ? WHERE id = ?", [currentID, .text(id)])
                        }
                    }
                }
                return (read, rewritten)
            }
        }

        func missingSealingKeys(_ keyIDs: [SealingKeyID], currentKeyID: SealingKeyID) -> SQLiteAuthStoreError {
            .missingSealingKeys(path: store.path, keyIDs: keyIDs, currentKeyID: currentKeyID)
        }

        func unusableSecret(recordID: String, _ error: SealingError) -> SQLiteAuthStoreError {
            .unusableSecret(recordID: recordID, error)
        }
    }

    var sealedTables: SealedTables { SealedTables(store: self) }

    /// The ids of the keys that stored secrets are sealed under, with how many rows use each.
    public func sealingKeyUsage() async throws(SQLiteAuthStoreError) -> [SealingKeyID: Int] {
        try await sealedTables.keyIDUsage()
    }

    /// Re-seals every secret not sealed under the sealer's current key, and returns how many it
    /// rewrote.
    ///
    /// Run it after making a new key current with the old one as a previous key; when it returns,
    /// no row needs the old key (``sealingKeyUsage()`` shows it) and the old key can be dropped.
    /// Works in batches of `batchSize` rows, each batch one transaction. A row whose `key_id`
    /// column named an old key while its value was already under the current key gets the column
    /// set right and is not counted.
    @discardableResult
    public func resealAll(batchSize: Int = 200) async throws(SQLiteAuthStoreError) -> Int {
        try await sealedTables.resealAll(with: sealer, batchSize: batchSize)
    }
}
