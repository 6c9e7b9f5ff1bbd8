// OTPAuthenticationTestSupport's name before the rename, kept for one release (see the OTPEnrollment module).
@_exported public import OTPAuthenticationTestSupport
@_exported public import OTPEnrollment

@available(*, deprecated, renamed: "AuthStoreConformance")
public typealias EnrollmentStoreConformance = AuthStoreConformance
@available(*, deprecated, renamed: "AuthStoreConformanceCase")
public typealias EnrollmentStoreConformanceCase = AuthStoreConformanceCase
@available(*, deprecated, renamed: "AuthStoreConformanceFailure")
public typealias EnrollmentStoreConformanceFailure = AuthStoreConformanceFailure
