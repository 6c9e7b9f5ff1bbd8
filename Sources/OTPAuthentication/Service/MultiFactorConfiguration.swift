public import OTPCore

/// A project's multi-factor settings: what Identity Platform's project configuration holds, and the
/// limits a server must set that Firebase does not document.
public struct MultiFactorConfiguration: Sendable, Hashable {
    /// Whether users may enroll TOTP factors (Identity Platform's provider state ENABLED/DISABLED).
    /// Disabling it stops new enrollments; enrolled users still need their second factor.
    public var isTOTPEnabled: Bool
    /// Time steps accepted on each side of the current one, 0...10 (Firebase's `adjacentIntervals`).
    public var adjacentIntervals: Int
    /// Seconds between starting an enrollment and its deadline (Firebase's `finalizeEnrollmentTime`).
    public var enrollmentDeadline: Int64
    /// Seconds a pending sign-in credential stays usable after the first factor passed.
    public var pendingSignInLifetime: Int64
    /// Seconds after a sign-in during which enrolling and unenrolling second factors, generating
    /// recovery codes and, with ``credentialChangesRequireRecentLogin``, changing credentials are
    /// allowed (`requiresRecentLogin`, Firebase's `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, after it).
    public var recentLoginWindow: Int64
    /// Whether a user's own change of password or address, a link or unlink of a provider and the
    /// deletion of the account need a sign-in within ``recentLoginWindow``, as Firebase requires;
    /// a new password or address for an account with second factors then also needs a session
    /// that completed one. On by default: without it, a stolen or forgotten session could replace
    /// the password and then remove the second factors. Sessions that continue another (after a
    /// link or a change of credentials) keep the earlier sign-in's time.
    public var credentialChangesRequireRecentLogin: Bool
    /// Consecutive failed codes (K) after which a factor or pending enrollment is locked.
    public var maximumConsecutiveFailures: Int
    /// Seconds a lock lasts.
    public var lockoutDuration: Int64
    /// Seconds failures in a row are remembered after the last one (a day by default):
    /// ``MultiFactorService/purgeExpired()`` forgets an unlocked failure counter this long after
    /// it last counted, so counters do not pile up for every address and factor ever tried.
    public var failureMemory: Int64
    /// The number of bytes of each new secret (Firebase's keys are 20 bytes, 32 Base32 characters).
    public var secretByteCount: Int
    /// Seconds a session may go unused before it ends (default 7 days). Uses are recorded to the
    /// minute (to half this lifetime when that is shorter), so a session ends between this and a
    /// minute less after its last use.
    public var sessionIdleLifetime: Int64
    /// Seconds after sign-in at which a session ends however much it is used (default 30 days).
    public var sessionAbsoluteLifetime: Int64
    /// The most sessions one user keeps (default 20); a new sign-in beyond it ends the user's oldest
    /// session, so a user who signs in again and again cannot grow the store without bound.
    public var maximumSessionsPerUser: Int
    /// Phone (SMS) second factors: how codes are sent, how long they live, how often they may be
    /// sent. Off unless ``PhoneSettings/isEnabled``.
    public var phone: PhoneSettings
    /// Email-and-password accounts: hash cost, minimum length, enumeration protection.
    public var passwords: PasswordSettings
    /// Email actions (password resets, address verifications, sign-in links): where links lead,
    /// how long codes live, how often an address is sent one. Messages need an ``EmailSender``.
    public var emailActions: EmailActionSettings
    /// Passkeys as a first factor: the relying party and its limits. Off unless
    /// ``PasskeySettings/relyingPartyID`` is set.
    public var passkeys: PasskeySettings
    /// The audit log: whether security events are recorded, and for how long they are kept.
    public var auditLog: AuditSettings

    /// The most second factors a user may have, as Firebase allows.
    public static let maximumFactorCount = 5
    /// The range Firebase accepts for ``adjacentIntervals``.
    public static let adjacentIntervalsRange = 0...10
    /// Firebase's TOTP parameters: SHA-1, 6 digits, 30-second steps.
    public static let algorithm = OTPAlgorithm.sha1
    /// Digits of each code.
    public static let codeLength = 6
    /// Seconds per time step.
    public static let codeIntervalSeconds = 30

    /// Creates a configuration; ``MultiFactorService/init(configuration:store:clock:opener:smsSender:emailSender:identityProviders:logger:)``
    /// checks it.
    public init(
        isTOTPEnabled: Bool = true,
        adjacentIntervals: Int = 5,
        enrollmentDeadline: Int64 = 600,
        pendingSignInLifetime: Int64 = 300,
        recentLoginWindow: Int64 = 300,
        credentialChangesRequireRecentLogin: Bool = true,
        maximumConsecutiveFailures: Int = 5,
        lockoutDuration: Int64 = 300,
        failureMemory: Int64 = 86_400,
        secretByteCount: Int = 20,
        sessionIdleLifetime: Int64 = 7 * 86_400,
        sessionAbsoluteLifetime: Int64 = 30 * 86_400,
        maximumSessionsPerUser: Int = 20,
        phone: PhoneSettings = PhoneSettings(),
        passwords: PasswordSettings = PasswordSettings(),
        emailActions: EmailActionSettings = EmailActionSettings(),
        passkeys: PasskeySettings = PasskeySettings(),
        auditLog: AuditSettings = AuditSettings()
    ) {
        self.isTOTPEnabled = isTOTPEnabled
        self.adjacentIntervals = adjacentIntervals
        self.enrollmentDeadline = enrollmentDeadline
        self.pendingSignInLifetime = pendingSignInLifetime
        self.recentLoginWindow = recentLoginWindow
        self.credentialChangesRequireRecentLogin = credentialChangesRequireRecentLogin
        self.maximumConsecutiveFailures = maximumConsecutiveFailures
        self.lockoutDuration = lockoutDuration
        self.failureMemory = failureMemory
        self.secretByteCount = secretByteCount
        self.sessionIdleLifetime = sessionIdleLifetime
        self.sessionAbsoluteLifetime = sessionAbsoluteLifetime
        self.maximumSessionsPerUser = maximumSessionsPerUser
        self.phone = phone
        self.passwords = passwords
        self.emailActions = emailActions
        self.passkeys = passkeys
        self.auditLog = auditLog
    }

    /// Checks every setting.
    /// - Throws: The first ``MultiFactorConfigurationError`` found.
    public func validate() throws(MultiFactorConfigurationError) {
        guard Self.adjacentIntervalsRange.contains(adjacentIntervals) else {
            throw .adjacentIntervalsOutOfRange(adjacentIntervals)
        }
        for (name, value) in [
            ("enrollmentDeadline", enrollmentDeadline),
            ("pendingSignInLifetime", pendingSignInLifetime),
            ("recentLoginWindow", recentLoginWindow),
            ("lockoutDuration", lockoutDuration),
            ("failureMemory", failureMemory),
            ("passwords.knownSourceLifetime", passwords.knownSourceLifetime),
            ("sessionIdleLifetime", sessionIdleLifetime),
            ("sessionAbsoluteLifetime", sessionAbsoluteLifetime),
            ("auditLog.retention", auditLog.retention),
        ] where value <= 0 {
            throw .nonPositiveDuration(name: name, seconds: value)
        }
        guard maximumConsecutiveFailures >= 1 else { throw .invalidFailureLimit(maximumConsecutiveFailures) }
        guard (16...64).contains(secretByteCount) else { throw .invalidSecretByteCount(secretByteCount) }
        guard maximumSessionsPerUser >= 1 else { throw .invalidSessionLimit(maximumSessionsPerUser) }
        try phone.validate()
        guard (1...4096).contains(passwords.minimumLength) else { throw .invalidPasswordSetting("minimumLength must be 1 to 4096") }
        guard passwords.maximumFailuresPerSource >= 1 else { throw .invalidPasswordSetting("maximumFailuresPerSource must be at least 1") }
        guard passwords.maximumConcurrentHashes >= 1 else { throw .invalidPasswordSetting("maximumConcurrentHashes must be at least 1") }
        guard passwords.maximumWaitingHashes >= 0 else { throw .invalidPasswordSetting("maximumWaitingHashes must be 0 or more") }
        guard passwords.sourceWindow > 0 else { throw .nonPositiveDuration(name: "passwords.sourceWindow", seconds: passwords.sourceWindow) }
        try emailActions.validate()
        try passkeys.validate()
    }
}

/// A ``MultiFactorConfiguration`` setting that cannot work.
public enum MultiFactorConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `adjacentIntervals` is outside 0...10.
    case adjacentIntervalsOutOfRange(Int)
    /// A duration is zero or negative.
    case nonPositiveDuration(name: String, seconds: Int64)
    /// The failure limit is below 1.
    case invalidFailureLimit(Int)
    /// The secret length is outside 16...64 bytes.
    case invalidSecretByteCount(Int)
    /// The session limit is below 1.
    case invalidSessionLimit(Int)
    /// OpenSSL's random generator could not produce the key the service digests codes under.
    case randomKeyUnavailable
    /// A phone setting cannot work; the text says which and why.
    case invalidPhoneSetting(String)
    /// Phone factors are enabled, with no test phone numbers, but the service was given no ``SMSSender``.
    case missingSMSSender
    /// A password setting cannot work; the text says which and why.
    case invalidPasswordSetting(String)
    /// An email-action setting cannot work; the text says which and why.
    case invalidEmailActionSetting(String)
    /// A passkey setting cannot work; the text says which and why.
    case invalidPasskeySetting(String)
    /// Two identity token verifiers were given for one provider id.
    case duplicateIdentityProvider(String)

    public var description: String {
        switch self {
        case .adjacentIntervalsOutOfRange(let value):
            "adjacentIntervals \(value) is out of range: use 0 to 10 (Firebase's default is 5)"
        case .nonPositiveDuration(let name, let seconds):
            "\(name) of \(seconds) seconds is not positive: use a number of seconds above 0"
        case .invalidFailureLimit(let value):
            "maximumConsecutiveFailures \(value) is below 1: use at least 1 (5 is a common choice)"
        case .invalidSecretByteCount(let value):
            "secretByteCount \(value) is outside 16...64: use 20 for SHA-1 keys as Firebase does"
        case .invalidSessionLimit(let value):
            "maximumSessionsPerUser \(value) is below 1: allow at least one session per user (the default is 20)"
        case .invalidPasswordSetting(let detail):
            "invalid password setting: \(detail)"
        case .invalidEmailActionSetting(let detail):
            "email actions: \(detail)"
        case .invalidPasskeySetting(let detail):
            "passkeys: \(detail)"
        case .invalidPhoneSetting(let detail):
            "phone settings: \(detail)"
        case .duplicateIdentityProvider(let id):
            "two identity token verifiers were given for provider \(id): give one per provider id"
        case .missingSMSSender:
            "phone second factors are enabled but no SMS sender was given: pass smsSender to MultiFactorService, or disable phone factors"
        case .randomKeyUnavailable:
            "OpenSSL's random generator could not make a key for code digests: check that the system's entropy source works"
        }
    }
}
