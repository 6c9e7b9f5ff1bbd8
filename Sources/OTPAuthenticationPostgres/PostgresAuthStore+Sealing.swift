internal import OTPAuthentication
public import OTPSealing
internal import NIOCore
internal import OTPCore
internal import OTPDurableStore
internal import PostgresNIO

// The sealed-secret convention of OTPDurableStore on PostgreSQL: the key-id column `key_id`, the
// sealed value in `sealed_secret`, in the tables below.

extension PostgresAuthStore {
    /// `secret` sealed for `recordID`: the value for `sealed_secret` and the id for `key_id`.
    func sealed(_ secret: OTPSecret, recordID: String) throws(PostgresAuthStoreError) -> (bytes: ByteBuffer, keyID: String) {
        do throws(SealingError) {
            let sealed = try StoreSecrets.seal(secret, recordID: recordID, with: sealer)
            return (ByteBuffer(bytes: sealed.bytes), sealed.keyID)
        } catch {
            throw .unusableSecret(recordID: recordID, error)
        }
    }

    /// The store's tables of sealed secrets, for OTPDurableStore's start-up check and re-sealing.
    struct SealedTables: SealedSecretTable {
        let store: PostgresAuthStore

        /// The tables with a sealed secret per row: constants, never input.
        private static var tables: [String] { ["factors", "pending_enrollments", "store_secrets"] }

        /// The key id inside a sealed value, in the column's form: format byte, then the id's bytes.
        private static var keyIDOfValue: String {
            "encode(substring(sealed_secret from 2 for \(SealingKeyID.byteCount)), 'hex')"
        }

        func repairKeyIDColumns() async throws(PostgresAuthStoreError) -> Int {
            try await store.transaction("repairing key id columns", retry: .always) { connection in
                var repaired = 0
                for table in Self.tables {
                    repaired += try await connection.query(
                        """
                        UPDATE \(unescaped: table) SET key_id = \(unescaped: Self.keyIDOfValue)
                        WHERE length(sealed_secret) > \(SealingKeyID.byteCount + 1) AND key_id IS DISTINCT FROM \(unescaped: Self.keyIDOfValue)
                        RETURNING id
                        """
                    ).count
                }
                return repaired
            }
        }

        func keyIDUsage() async throws(PostgresAuthStoreError) -> [SealingKeyID: Int] {
            let rows = try await store.reading("counting sealed rows per key") { connection in
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: "SELECT key_id, count(*) AS n FROM ("
                            + Self.tables.map { "SELECT key_id FROM \($0)" }.joined(separator: " UNION ALL ")
                            + ") AS sealed GROUP BY key_id"))
            }
            var usage: [SealingKeyID: Int] = [:]
            for row in rows {
                let reader = PostgresStoredRow(row: row)
                let text = try reader.text("key_id", of: "key")
                guard let id = SealingKeyID(hex: text) else {
                    throw .invalidRecord(recordID: "key \(text)", detail: "not a key id")
                }
                usage[id] = Int(try reader.integer("n", of: "key \(text)"))
            }
            return usage
        }

        func openOneRow(sealedUnder keyID: SealingKeyID) async throws(PostgresAuthStoreError) {
            let rows = try await store.reading("reading a sealed row") { connection in
                var rows: [PostgresRandomAccessRow] = []
                for table in Self.tables {
                    rows += try await connection.query(
                        "SELECT id, sealed_secret FROM \(unescaped: table) WHERE key_id = \(keyID.description) LIMIT 1")
                }
                return rows
            }
            for row in rows {
                let reader = PostgresStoredRow(row: row)
                _ = try reader.openSecret(store.sealer, recordID: try reader.text("id", of: "?"))
            }
        }

        func resealBatch(
            notUnder current: SealingKeyID,
            limit: Int,
            _ reseal: @escaping @Sendable (String, SealedSecret) throws(PostgresAuthStoreError) -> SealedSecret?
        ) async throws(PostgresAuthStoreError) -> (read: Int, rewritten: Int) {
            // The rows are read and locked in one transaction, re-sealed here, and written in a
            // second that changes a row only while it still holds the value read: a row another
            // server re-sealed or changed in between is left to the next batch.
            let currentID = current.description
            let read = try await store.reading("reading rows to re-seal") { connection in
                var read: [(table: String, row: PostgresRandomAccessRow)] = []
                for table in Self.tables where read.count < limit {
                    let rows = try await connection.query(
                        "SELECT id, sealed_secret FROM \(unescaped: table) WHERE key_id <> \(currentID) ORDER BY id LIMIT \(Int64(limit - read.count))"
                    )
                    read += rows.map { (table, $0) }
                }
                return read.map { Pair(table: $0.table, row: $0.row) }
            }
            var updates: [Update] = []
            for entry in read {
                let reader = PostgresStoredRow(row: entry.row)
                let id = try reader.text("id", of: "?")
                let bytes = try reader.bytes("sealed_secret", of: id)
                let stored: SealedSecret
                do throws(SealingError) {
                    stored = try SealedSecret(bytes: bytes)
                } catch {
                    throw .unusableSecret(recordID: id, error)
                }
                updates.append(
                    Update(table: entry.table, id: id, old: ByteBuffer(bytes: bytes), new: try reseal(id, stored).map { ByteBuffer(bytes: $0.bytes) })
                )
            }
            let finalUpdates = updates
            let rewritten = try await store.transaction("re-sealing secrets", retry: .always) { connection in
                var rewritten = 0
                for update in finalUpdates {
                    let changed = try await connection.query(
                        """
                        UPDATE \(unescaped: update.table) SET sealed_secret = \(update.new ?? update.old), key_id = \(currentID)
                        WHERE id = \(update.id) AND sealed_secret = \(update.old) RETURNING id
                        """)
                    if update.new != nil { rewritten += changed.count }
                }
                return rewritten
            }
            return (read.count, rewritten)
        }

        private struct Pair: Sendable {
            let table: String
            let row: PostgresRandomAccessRow
        }

        private struct Update: Sendable {
            let table: String
            let id: String
            let old: ByteBuffer
            let new: ByteBuffer?
        }

        func missingSealingKeys(_ keyIDs: [SealingKeyID], currentKeyID: SealingKeyID) -> PostgresAuthStoreError {
            .missingSealingKeys(server: store.server, keyIDs: keyIDs, currentKeyID: currentKeyID)
        }

        func unusableSecret(recordID: String, _ error: SealingError) -> PostgresAuthStoreError {
            .unusableSecret(recordID: recordID, error)
        }
    }

    var sealedTables: SealedTables { SealedTables(store: self) }

    /// The ids of the keys that stored secrets are sealed under, with how many rows use each.
    ///
    /// - Throws: ``PostgresAuthStoreError`` when the database cannot be read.
    public func sealingKeyUsage() async throws(PostgresAuthStoreError) -> [SealingKeyID: Int] {
        try await sealedTables.keyIDUsage()
    }

    /// Re-seals every secret not sealed under the sealer's current key, and returns how many it
    /// rewrote.
    ///
    /// Run it after making a new key current with the old one as a previous key; when it returns,
    /// no row needs the old key (``sealingKeyUsage()`` shows it) and the old key can be dropped.
    /// Works in batches of `batchSize` rows. A row whose `key_id` column named an old key while its
    /// value was already under the current key gets the column set right and is not counted.
    ///
    /// - Parameter batchSize: How many rows one batch reads.
    /// - Throws: ``PostgresAuthStoreError/unusableSecret(recordID:_:)`` for a value no key
    ///   opens, or a database failure.
    @discardableResult
    public func resealAll(batchSize: Int = 200) async throws(PostgresAuthStoreError) -> Int {
        try await sealedTables.resealAll(with: sealer, batchSize: batchSize)
    }

    // MARK: The code digest key

    /// The store's own code digest key, made at random when the database is created and kept in it
    /// sealed like any secret: digests outlive the process, a copy of the database cannot test
    /// guesses without the sealing key, and a key rotation re-seals this key with the rest, so
    /// recovery codes survive it.
    public var codeDigestKeys: SecretSealer? { codeDigestSealer }

    /// Reads the code digest key, creating it on first use: `ON CONFLICT DO NOTHING` lets the first
    /// server's key stand, and every server then reads that one.
    func loadCodeDigestKey() async throws(PostgresAuthStoreError) -> SecretSealer {
        let id = StoreSecrets.codeDigestKeyRecordID
        let fresh: OTPSecret
        do {
            fresh = try StoreSecrets.newCodeDigestKey()
        } catch {
            throw .invalidRecord(recordID: id, detail: "no code digest key could be generated: \(error)")
        }
        let sealedFresh = try sealed(fresh, recordID: id)
        let rows = try await transaction("reading the code digest key", retry: .always) { connection in
            try await connection.execute(
                """
                INSERT INTO store_secrets (id, sealed_secret, key_id) VALUES (\(id), \(sealedFresh.bytes), \(sealedFresh.keyID))
                ON CONFLICT (id) DO NOTHING
                """)
            return try await connection.query("SELECT id, sealed_secret FROM store_secrets WHERE id = \(id)")
        }
        guard let row = rows.first else { throw .invalidRecord(recordID: id, detail: "the code digest key is missing") }
        let secret = try PostgresStoredRow(row: row).openSecret(sealer, recordID: id)
        do throws(SealingError) {
            return try StoreSecrets.codeDigestSealer(secret)
        } catch {
            throw .unusableSecret(recordID: id, error)
        }
    }
}
