internal import OTPCore
internal import OTPDurableStore
internal import OTPAuthentication
internal import OTPSealing
internal import SQLiteNIO

// Conversions between records and rows. Secrets enter and leave the database only sealed.

extension SQLiteAuthStore {
    static let pendingColumns = StoredColumns.pendingEnrollment
    static let factorColumns = StoredColumns.factor
    static let sessionColumns = StoredColumns.session

    func sealed(_ secret: OTPSecret, recordID: String) throws(SQLiteAuthStoreError) -> [SQLiteData] {
        do throws(SealingError) {
            let sealed = try StoreSecrets.seal(secret, recordID: recordID, with: sealer)
            return [.blob(ByteBuffer(bytes: sealed.bytes)), .text(sealed.keyID)]
        } catch {
            throw .unusableSecret(recordID: recordID, error)
        }
    }

    func pendingBinds(_ record: PendingEnrollmentRecord) throws(SQLiteAuthStoreError) -> [SQLiteData] {
        [.text(record.id), .text(record.userID)] + (try sealed(record.secret, recordID: record.id)) + [
            .text(record.algorithm.rawValue), .integer(.init(record.digits)), .integer(.init(record.period)),
            .integer(.init(record.createdAt)), .integer(.init(record.deadline)),
        ]
    }

    func factorBinds(_ record: FactorRecord) throws(SQLiteAuthStoreError) -> [SQLiteData] {
        let step: SQLiteData = if let step = record.lastAcceptedStep { .integer(.init(try Self.storedStep(step))) } else { .null }
        return [
            .text(record.id), .text(record.userID), .text(record.factorID), record.displayName.map { .text($0) } ?? .null,
            .integer(.init(record.enrolledAt)),
        ] + (try sealed(record.secret, recordID: record.id)) + [
            .text(record.algorithm.rawValue), .integer(.init(record.digits)), .integer(.init(record.period)), step,
        ]
    }

    static func storedStep(_ step: UInt64) throws(SQLiteAuthStoreError) -> Int64 {
        guard let stored = Int64(exactly: step) else { throw .stepOutOfRange(step) }
        return stored
    }

    func pendingRecord(_ row: SQLiteRow) throws(SQLiteAuthStoreError) -> PendingEnrollmentRecord {
        try RowReader(row: row).pendingEnrollmentRecord(sealer)
    }

    func factorRecord(_ row: SQLiteRow) throws(SQLiteAuthStoreError) -> FactorRecord {
        try RowReader(row: row).factorRecord(sealer)
    }

    func sessionRecord(_ row: SQLiteRow) throws(SQLiteAuthStoreError) -> SessionRecord {
        try RowReader(row: row).sessionRecord()
    }

    func openSecret(_ reader: RowReader, recordID: String) throws(SQLiteAuthStoreError) -> OTPSecret {
        try reader.openSecret(sealer, recordID: recordID)
    }
}

/// Typed column access that reports a missing or mistyped column as an invalid record; the
/// records are built from it by OTPDurableStore's `StoredRow`, as on every store.
struct RowReader: StoredRow {
    let row: SQLiteRow

    func text(_ column: String, of recordID: String = "?") throws(SQLiteAuthStoreError) -> String {
        guard case .text(let value) = row.column(column) else {
            throw .invalidRecord(recordID: recordID, detail: "column \(column) is not text")
        }
        return value
    }

    func optionalText(_ column: String, of recordID: String) throws(SQLiteAuthStoreError) -> String? {
        switch row.column(column) {
        case .text(let value): return value
        case .null, nil: return nil
        default: throw .invalidRecord(recordID: recordID, detail: "column \(column) is not text")
        }
    }

    func integer(_ column: String, of recordID: String) throws(SQLiteAuthStoreError) -> Int64 {
        guard case .integer(let value) = row.column(column) else {
            throw .invalidRecord(recordID: recordID, detail: "column \(column) is not an integer")
        }
        return Int64(value)
    }

    func optionalInteger(_ column: String, of recordID: String) throws(SQLiteAuthStoreError) -> Int64? {
        switch row.column(column) {
        case .integer(let value): return Int64(value)
        case .null, nil: return nil
        default: throw .invalidRecord(recordID: recordID, detail: "column \(column) is not an integer")
        }
    }

    /// SQLite has no booleans: OTPKit stores 0 and 1.
    func boolean(_ column: String, of recordID: String) throws(SQLiteAuthStoreError) -> Bool {
        try integer(column, of: recordID) != 0
    }

    func bytes(_ column: String, of recordID: String) throws(SQLiteAuthStoreError) -> [UInt8] {
        guard let buffer = row.column(column)?.blob else {
            throw .invalidRecord(recordID: recordID, detail: "no \(column.replacingUnderscores)")
        }
        return Array(buffer.readableBytesView)
    }

    func optionalBytes(_ column: String, of recordID: String) throws(SQLiteAuthStoreError) -> [UInt8]? {
        switch row.column(column) {
        case .null, nil: nil
        default: try bytes(column, of: recordID)
        }
    }

    func invalidRecord(recordID: String, detail: String) -> SQLiteAuthStoreError {
        .invalidRecord(recordID: recordID, detail: detail)
    }

    func unusableSecret(recordID: String, _ error: SealingError) -> SQLiteAuthStoreError {
        .unusableSecret(recordID: recordID, error)
    }
}

extension String {
    /// `sealed_secret` as "sealed secret", for messages.
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
