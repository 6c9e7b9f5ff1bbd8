internal import OTPCore
internal import OTPEnrollment
internal import OTPSealing
internal import SQLiteNIO

// Conversions between records and rows. Secrets enter and leave the database only sealed.

extension SQLiteEnrollmentStore {
    static let pendingColumns = "id, user_id, sealed_secret, key_id, algorithm, digits, period, created_at, deadline"
    static let factorColumns =
        "id, user_id, factor_id, display_name, enrolled_at, sealed_secret, key_id, algorithm, digits, period, last_accepted_step"
    static let pendingSignInColumns = "id, user_id, first_factor_provider, created_at, expires_at"
    static let sessionColumns = "id, user_id, first_factor_provider, authenticated_at, second_factor_enrollment_id, last_used_at, expires_at"

    func sealed(_ secret: OTPSecret, recordID: String) throws(SQLiteEnrollmentStoreError) -> [SQLiteData] {
        do {
            let sealed = try sealer.seal(secret, enrollmentID: recordID)
            return [.blob(ByteBuffer(bytes: sealed.bytes)), .text(sealed.keyID.description)]
        } catch {
            throw .unusableSecret(recordID: recordID, error)
        }
    }

    func pendingBinds(_ record: PendingEnrollmentRecord) throws(SQLiteEnrollmentStoreError) -> [SQLiteData] {
        [.text(record.id), .text(record.userID)] + (try sealed(record.secret, recordID: record.id)) + [
            .text(record.algorithm.rawValue), .integer(.init(record.digits)), .integer(.init(record.period)),
            .integer(.init(record.createdAt)), .integer(.init(record.deadline)),
        ]
    }

    func factorBinds(_ record: FactorRecord) throws(SQLiteEnrollmentStoreError) -> [SQLiteData] {
        let step: SQLiteData = if let step = record.lastAcceptedStep { .integer(.init(try Self.storedStep(step))) } else { .null }
        return [
            .text(record.id), .text(record.userID), .text(record.factorID), record.displayName.map { .text($0) } ?? .null,
            .integer(.init(record.enrolledAt)),
        ] + (try sealed(record.secret, recordID: record.id)) + [
            .text(record.algorithm.rawValue), .integer(.init(record.digits)), .integer(.init(record.period)), step,
        ]
    }

    static func storedStep(_ step: UInt64) throws(SQLiteEnrollmentStoreError) -> Int64 {
        guard let stored = Int64(exactly: step) else { throw .stepOutOfRange(step) }
        return stored
    }

    func pendingRecord(_ row: SQLiteRow) throws(SQLiteEnrollmentStoreError) -> PendingEnrollmentRecord {
        let reader = RowReader(row: row)
        let id = try reader.text("id")
        return PendingEnrollmentRecord(
            id: id,
            userID: try reader.text("user_id", of: id),
            secret: try openSecret(reader, recordID: id),
            algorithm: try reader.algorithm(of: id),
            digits: Int(try reader.integer("digits", of: id)),
            period: try reader.integer("period", of: id),
            createdAt: try reader.integer("created_at", of: id),
            deadline: try reader.integer("deadline", of: id)
        )
    }

    func factorRecord(_ row: SQLiteRow) throws(SQLiteEnrollmentStoreError) -> FactorRecord {
        let reader = RowReader(row: row)
        let id = try reader.text("id")
        let step = try reader.optionalInteger("last_accepted_step", of: id)
        return FactorRecord(
            id: id,
            userID: try reader.text("user_id", of: id),
            factorID: try reader.text("factor_id", of: id),
            displayName: row.column("display_name")?.string,
            enrolledAt: try reader.integer("enrolled_at", of: id),
            secret: try openSecret(reader, recordID: id),
            algorithm: try reader.algorithm(of: id),
            digits: Int(try reader.integer("digits", of: id)),
            period: try reader.integer("period", of: id),
            lastAcceptedStep: try step.map { stored throws(SQLiteEnrollmentStoreError) in
                guard let step = UInt64(exactly: stored) else {
                    throw .invalidRecord(recordID: id, detail: "negative last accepted step")
                }
                return step
            }
        )
    }

    func pendingSignInRecord(_ row: SQLiteRow) throws(SQLiteEnrollmentStoreError) -> PendingSignInRecord {
        let reader = RowReader(row: row)
        let id = try reader.text("id")
        return PendingSignInRecord(
            id: id,
            userID: try reader.text("user_id", of: id),
            firstFactorProvider: try reader.text("first_factor_provider", of: id),
            createdAt: try reader.integer("created_at", of: id),
            expiresAt: try reader.integer("expires_at", of: id)
        )
    }

    func sessionRecord(_ row: SQLiteRow) throws(SQLiteEnrollmentStoreError) -> SessionRecord {
        let reader = RowReader(row: row)
        let id = try reader.text("id")
        return SessionRecord(
            id: id,
            userID: try reader.text("user_id", of: id),
            firstFactorProvider: try reader.text("first_factor_provider", of: id),
            authenticatedAt: try reader.integer("authenticated_at", of: id),
            secondFactorEnrollmentID: row.column("second_factor_enrollment_id")?.string,
            lastUsedAt: try reader.integer("last_used_at", of: id),
            expiresAt: try reader.integer("expires_at", of: id)
        )
    }

    func openSecret(_ reader: RowReader, recordID: String) throws(SQLiteEnrollmentStoreError) -> OTPSecret {
        guard let buffer = reader.row.column("sealed_secret")?.blob else {
            throw .invalidRecord(recordID: recordID, detail: "no sealed secret")
        }
        do {
            return try sealer.open(SealedSecret(bytes: Array(buffer.readableBytesView)), enrollmentID: recordID)
        } catch {
            throw .unusableSecret(recordID: recordID, error)
        }
    }
}

/// Typed column access that reports a missing or mistyped column as an invalid record.
struct RowReader {
    let row: SQLiteRow

    func text(_ column: String, of recordID: String = "?") throws(SQLiteEnrollmentStoreError) -> String {
        guard case .text(let value) = row.column(column) else {
            throw .invalidRecord(recordID: recordID, detail: "column \(column) is not text")
        }
        return value
    }

    func integer(_ column: String, of recordID: String) throws(SQLiteEnrollmentStoreError) -> Int64 {
        guard case .integer(let value) = row.column(column) else {
            throw .invalidRecord(recordID: recordID, detail: "column \(column) is not an integer")
        }
        return Int64(value)
    }

    func optionalInteger(_ column: String, of recordID: String) throws(SQLiteEnrollmentStoreError) -> Int64? {
        switch row.column(column) {
        case .integer(let value): return Int64(value)
        case .null, nil: return nil
        default: throw .invalidRecord(recordID: recordID, detail: "column \(column) is not an integer")
        }
    }

    func algorithm(of recordID: String) throws(SQLiteEnrollmentStoreError) -> OTPAlgorithm {
        let name = try text("algorithm", of: recordID)
        guard let algorithm = OTPAlgorithm(rawValue: name) else {
            throw .invalidRecord(recordID: recordID, detail: "unknown algorithm \(name)")
        }
        return algorithm
    }
}
