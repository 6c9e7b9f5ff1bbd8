package import OTPEnrollmentPostgres
package import OTPEnrollmentSQLite

/// The failure of an ``EnrollmentDatabase`` operation: the store's own typed error, so that each
/// program classifies it as it reports failures (an exit status, a log line).
package enum EnrollmentDatabaseError: Error, Sendable, CustomStringConvertible {
    case sqlite(SQLiteEnrollmentStoreError)
    case postgres(PostgresEnrollmentStoreError)

    package var description: String {
        switch self {
        case .sqlite(let error): "\(error)"
        case .postgres(let error): "\(error)"
        }
    }
}
