/// How many attempts the routes let through, per client address and per account, before they
/// answer `TOO_MANY_ATTEMPTS_TRY_LATER` (HTTP 400, as Firebase does) without doing anything else.
///
/// Every attempt counts, whether it succeeds or not, in the store's quotas, so every server of one
/// store counts together: token buckets that let a limit through at once and then one attempt
/// each ``window`` divided by the limit, so that no moment lets twice a limit through. They come on top of the
/// service's own failure limits (a factor or an address locked after consecutive wrong codes or
/// passwords, the text messages per number and per user of `PhoneSettings`). `nil` turns a limit
/// off.
public struct RequestLimits: Sendable, Hashable {
    /// The seconds over which each limit here is allowed.
    public var window: Int64
    /// Password sign-ins (`accounts:signInWithPassword`) from one client address per window.
    public var signInsPerAddress: Int?
    /// Password sign-ins to one email address, whether it has an account or not, per window.
    public var signInsPerAccount: Int?
    /// Second-factor codes checked (`mfaSignIn:finalize`, `mfaEnrollment:finalize`) from one
    /// client address per window.
    public var verificationsPerAddress: Int?
    /// Second-factor codes checked for one user per window.
    public var verificationsPerAccount: Int?
    /// Text messages asked for (`mfaSignIn:start`, `mfaEnrollment:start` for a phone) from one
    /// client address per window. Per account, `PhoneSettings.sendsPerUser` applies.
    public var codeSendsPerAddress: Int?
    /// Accounts created by `accounts:signUp` (with a password or anonymous; not a password linked
    /// to a signed-in user) from one client address per window.
    public var signUpsPerAddress: Int?
    /// New passwords (a password linked with `accounts:signUp` and an ID token, or set by
    /// `accounts:update`), each a password hash, from one client address per window.
    public var passwordChangesPerAddress: Int?
    /// New passwords for one user per window.
    public var passwordChangesPerAccount: Int?
    /// Emails asked for (`accounts:sendOobCode`: password resets, address verifications, sign-in
    /// links) from one client address per window. Per recipient, `EmailActionSettings.sendsPerAddress`
    /// applies.
    public var emailsPerAddress: Int?

    /// Limits; none by default, as Firebase's Auth emulator has none.
    public init(
        window: Int64 = 3_600, signInsPerAddress: Int? = nil, signInsPerAccount: Int? = nil, verificationsPerAddress: Int? = nil,
        verificationsPerAccount: Int? = nil, codeSendsPerAddress: Int? = nil, signUpsPerAddress: Int? = nil,
        passwordChangesPerAddress: Int? = nil, passwordChangesPerAccount: Int? = nil, emailsPerAddress: Int? = nil
    ) {
        self.window = window
        self.signInsPerAddress = signInsPerAddress
        self.signInsPerAccount = signInsPerAccount
        self.verificationsPerAddress = verificationsPerAddress
        self.verificationsPerAccount = verificationsPerAccount
        self.codeSendsPerAddress = codeSendsPerAddress
        self.signUpsPerAddress = signUpsPerAddress
        self.passwordChangesPerAddress = passwordChangesPerAddress
        self.passwordChangesPerAccount = passwordChangesPerAccount
        self.emailsPerAddress = emailsPerAddress
    }

    /// No limit at all.
    public static let none = RequestLimits()

    /// What limits a request, and the names its quotas and metrics go under.
    enum Operation: String, CaseIterable, Sendable {
        case signIn = "sign_in"
        case verification
        case codeSend = "sms"
        case signUp = "sign_up"
        case passwordChange = "password_change"
        case emailSend = "email"

        /// Whom this operation is counted for: a new account has no one to count it under but
        /// its address, and the text messages of one user are the service's to count.
        var scopes: [Scope] {
            switch self {
            case .signIn, .verification, .passwordChange: [.address, .account]
            case .codeSend, .signUp, .emailSend: [.address]
            }
        }
    }

    /// Whom a limit counts: the client's address or the account.
    enum Scope: String, CaseIterable, Sendable {
        case address = "ip"
        case account
    }

    func limit(_ operation: Operation, _ scope: Scope) -> Int? {
        switch (operation, scope) {
        case (.signIn, .address): signInsPerAddress
        case (.signIn, .account): signInsPerAccount
        case (.verification, .address): verificationsPerAddress
        case (.verification, .account): verificationsPerAccount
        case (.codeSend, .address): codeSendsPerAddress
        case (.codeSend, .account): nil
        case (.signUp, .address): signUpsPerAddress
        case (.signUp, .account): nil
        case (.passwordChange, .address): passwordChangesPerAddress
        case (.passwordChange, .account): passwordChangesPerAccount
        case (.emailSend, .address): emailsPerAddress
        case (.emailSend, .account): nil
        }
    }
}
