internal import ArgumentParser
internal import OTPServer

/// The abuse limits and the slow-client timeouts of `otpkit-server` on the command line; the
/// `--config` file and the `OTPKIT_SERVER_*` variables give the same settings under the same
/// names (``ServerOption/all``), and ``ServerSettings`` checks and resolves them wherever they came from.
///
/// The limits count every attempt in the store, so every server of one database counts together.
/// Firebase's Auth emulator throttles nothing, so under `--emulator` the per-address and per-account
/// attempt limits are off unless given; `--sms-limit-per-account` (the service's own per-user send
/// quota) applies in both modes, as it did before.
struct LimitOptions: ParsableArguments {
    // Defaults: Firebase documents 150 verification requests per IP address per hour; sign-ins get
    // more room per address (offices and carriers share addresses) and little per account, which
    // one person rarely signs in to more than a few times an hour. New accounts from one address
    // are rarer still than sign-ins, and each one stays in the store. A new password is rarer than
    // a sign-in for anyone, and each costs a password hash.
    static let defaults = RequestLimits(
        window: 3_600, signInsPerAddress: 300, signInsPerAccount: 20, verificationsPerAddress: 150, verificationsPerAccount: 10,
        codeSendsPerAddress: 30, signUpsPerAddress: 100, passwordChangesPerAddress: 50, passwordChangesPerAccount: 10, emailsPerAddress: 30)
    static let defaultTimeout = 30
    /// Connections open at once: far more than a server of two cores answers in the time a client
    /// waits, far fewer than the descriptors it may have.
    static let defaultMaximumConnections = 1_000
    static let defaultCodeSendsPerAccount = 10

    @Option(
        name: .customLong("sign-in-limit-per-ip"),
        help: ArgumentHelp(
            "Password sign-ins from one client address per --limit-window (default \(Self.defaults.signInsPerAddress!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var signInsPerAddress: Int?

    @Option(
        name: .customLong("sign-in-limit-per-account"),
        help: ArgumentHelp(
            "Password sign-ins to one email address per --limit-window (default \(Self.defaults.signInsPerAccount!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var signInsPerAccount: Int?

    @Option(
        name: .customLong("sign-up-limit-per-ip"),
        help: ArgumentHelp(
            "Accounts created by accounts:signUp (password and anonymous) from one client address per --limit-window (default \(Self.defaults.signUpsPerAddress!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var signUpsPerAddress: Int?

    @Option(
        name: .customLong("password-change-limit-per-ip"),
        help: ArgumentHelp(
            "New passwords (linked by accounts:signUp with an ID token, or set by accounts:update) from one client address per --limit-window (default \(Self.defaults.passwordChangesPerAddress!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var passwordChangesPerAddress: Int?

    @Option(
        name: .customLong("password-change-limit-per-account"),
        help: ArgumentHelp(
            "New passwords for one user per --limit-window (default \(Self.defaults.passwordChangesPerAccount!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var passwordChangesPerAccount: Int?

    @Option(
        name: .customLong("verification-limit-per-ip"),
        help: ArgumentHelp(
            "Second-factor codes checked (mfaSignIn:finalize, mfaEnrollment:finalize) from one client address per --limit-window (default \(Self.defaults.verificationsPerAddress!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var verificationsPerAddress: Int?

    @Option(
        name: .customLong("verification-limit-per-account"),
        help: ArgumentHelp(
            "Second-factor codes checked for one user per --limit-window (default \(Self.defaults.verificationsPerAccount!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var verificationsPerAccount: Int?

    @Option(
        name: .customLong("sms-limit-per-ip"),
        help: ArgumentHelp(
            "Text messages asked for (mfaSignIn:start, mfaEnrollment:start with a phone) from one client address per --limit-window (default \(Self.defaults.codeSendsPerAddress!); 0 for none; none under --emulator unless given).",
            valueName: "count"))
    var codeSendsPerAddress: Int?

    @Option(
        name: .customLong("sms-limit-per-account"),
        help: ArgumentHelp(
            "Text messages sent for one user per hour, in both modes (default \(Self.defaultCodeSendsPerAccount); at least 1).", valueName: "count"))
    var codeSendsPerAccount: Int?

    @Option(
        name: .customLong("trust-forwarded-for"),
        help: ArgumentHelp(
            "The address of a proxy in front (repeatable): a request from it counts under the last X-Forwarded-For entry that is not such a proxy instead of the connection's peer; clients write the rest of the header as they like (default: none).",
            valueName: "address"))
    var trustedProxies: [String] = []

    @Option(
        name: .customLong("limit-window"),
        help: ArgumentHelp(
            "The seconds over which each per-ip and per-account limit is allowed, refilled evenly (default \(Self.defaults.window)).",
            valueName: "seconds"))
    var window: Int?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection that sends nothing for this many seconds, in the middle of a request (a client sending its body too slowly) or between requests (default \(Self.defaultTimeout)).",
            valueName: "seconds"))
    var idleTimeout: Int?

    @Option(
        name: .customLong("email-limit-per-ip"),
        help: ArgumentHelp(
            "Emails asked for (accounts:sendOobCode: password resets, address verifications, sign-in links) from one client address per --limit-window (default \(Self.defaults.emailsPerAddress!); 0 for none; none under --emulator unless given). Each address is sent at most 5 an hour besides.",
            valueName: "count"))
    var emailsPerAddress: Int?

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp(
            "Close a connection whose request has not arrived whole, head to end, within this many seconds, however steadily it trickles in (default \(Self.defaultTimeout)).",
            valueName: "seconds"))
    var requestTimeout: Int?

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "Connections served at once (default \(Self.defaultMaximumConnections); the server accepts a few at a time, so a burst may pass it by a few); more wait, unaccepted, until one closes, so that many idle or slow clients cannot use up the server's file descriptors.",
            valueName: "count"))
    var maximumConnections: Int?

    /// `layer` with what these options give on the command line.
    func applied(to layer: ServerSettingsLayer) -> ServerSettingsLayer {
        var layer = layer
        layer.signInsPerAddress = signInsPerAddress
        layer.signInsPerAccount = signInsPerAccount
        layer.signUpsPerAddress = signUpsPerAddress
        layer.passwordChangesPerAddress = passwordChangesPerAddress
        layer.passwordChangesPerAccount = passwordChangesPerAccount
        layer.verificationsPerAddress = verificationsPerAddress
        layer.verificationsPerAccount = verificationsPerAccount
        layer.codeSendsPerAddress = codeSendsPerAddress
        layer.codeSendsPerAccount = codeSendsPerAccount
        layer.emailsPerAddress = emailsPerAddress
        layer.trustedProxies = trustedProxies.isEmpty ? nil : trustedProxies
        layer.limitWindow = window
        layer.idleTimeout = idleTimeout
        layer.requestTimeout = requestTimeout
        layer.maximumConnections = maximumConnections
        return layer
    }
}
