// OTPAuthentication's name before the rename (it had grown from TOTP enrollment into a whole authentication
// system), kept for one release so that packages depending on the old product still build; their
// uses of the old type names warn with the new ones.
@_exported public import OTPAuthentication

@available(*, deprecated, renamed: "AuthStore")
public typealias EnrollmentStore = AuthStore
@available(*, deprecated, renamed: "InMemoryAuthStore")
public typealias InMemoryEnrollmentStore = InMemoryAuthStore
@available(*, deprecated, renamed: "AuthClock")
public typealias EnrollmentClock = AuthClock
@available(*, deprecated, renamed: "SystemAuthClock")
public typealias SystemEnrollmentClock = SystemAuthClock
@available(*, deprecated, renamed: "ManualAuthClock")
public typealias ManualEnrollmentClock = ManualAuthClock
