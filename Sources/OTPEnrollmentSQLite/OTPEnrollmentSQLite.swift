// OTPAuthenticationSQLite's name before the rename, kept for one release (see the OTPEnrollment module).
@_exported public import OTPAuthenticationSQLite
@_exported public import OTPEnrollment

@available(*, deprecated, renamed: "SQLiteAuthStore")
public typealias SQLiteEnrollmentStore = SQLiteAuthStore
@available(*, deprecated, renamed: "SQLiteAuthStoreError")
public typealias SQLiteEnrollmentStoreError = SQLiteAuthStoreError
