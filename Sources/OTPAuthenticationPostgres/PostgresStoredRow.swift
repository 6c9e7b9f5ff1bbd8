internal import NIOCore
internal import OTPDurableStore
internal import OTPSealing
internal import PostgresNIO

/// A row from PostgreSQL as OTPDurableStore's typed columns, so that records are built from it as
/// from every store's rows.
struct PostgresStoredRow: StoredRow {
    let row: PostgresRandomAccessRow

    private func decode<Value: PostgresDecodable>(_ type: Value?.Type, _ column: String, of recordID: String) throws(PostgresAuthStoreError)
        -> Value?
    {
        guard row.contains(column) else { throw invalidRecord(recordID: recordID, detail: "no column \(column)") }
        let cell = row[column]
        guard cell.bytes != nil else { return nil }
        do {
            return try cell.decode(Value.self)
        } catch {
            throw invalidRecord(recordID: recordID, detail: "column \(column) is not \(Value.self)")
        }
    }

    private func required<Value: PostgresDecodable>(_ type: Value.Type, _ column: String, of recordID: String) throws(PostgresAuthStoreError)
        -> Value
    {
        guard let value = try decode(Value?.self, column, of: recordID) else {
            throw invalidRecord(recordID: recordID, detail: "column \(column) is null")
        }
        return value
    }

    func text(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> String {
        try required(String.self, column, of: recordID)
    }

    func optionalText(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> String? {
        try decode(String?.self, column, of: recordID)
    }

    func integer(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> Int64 {
        try required(Int64.self, column, of: recordID)
    }

    func optionalInteger(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> Int64? {
        try decode(Int64?.self, column, of: recordID)
    }

    func boolean(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> Bool {
        try required(Bool.self, column, of: recordID)
    }

    func bytes(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> [UInt8] {
        Array(try required(ByteBuffer.self, column, of: recordID).readableBytesView)
    }

    func optionalBytes(_ column: String, of recordID: String) throws(PostgresAuthStoreError) -> [UInt8]? {
        try decode(ByteBuffer?.self, column, of: recordID).map { Array($0.readableBytesView) }
    }

    func invalidRecord(recordID: String, detail: String) -> PostgresAuthStoreError {
        .invalidRecord(recordID: recordID, detail: detail)
    }

    func unusableSecret(recordID: String, _ error: SealingError) -> PostgresAuthStoreError {
        .unusableSecret(recordID: recordID, error)
    }
}

extension Array where Element == PostgresRandomAccessRow {
    /// Each row as a record, through `record`.
    func records<Record>(_ record: (PostgresStoredRow) throws(PostgresAuthStoreError) -> Record) throws(PostgresAuthStoreError)
        -> [Record]
    {
        var records: [Record] = []
        records.reserveCapacity(count)
        for row in self { records.append(try record(PostgresStoredRow(row: row))) }
        return records
    }
}
