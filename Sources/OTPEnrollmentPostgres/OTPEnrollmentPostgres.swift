// OTPAuthenticationPostgres's name before the rename, kept for one release (see the OTPEnrollment module).
@_exported public import OTPAuthenticationPostgres
@_exported public import OTPEnrollment

@available(*, deprecated, renamed: "PostgresAuthStore")
public typealias PostgresEnrollmentStore = PostgresAuthStore
@available(*, deprecated, renamed: "PostgresAuthStoreError")
public typealias PostgresEnrollmentStoreError = PostgresAuthStoreError
