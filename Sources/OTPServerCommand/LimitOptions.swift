internal import ArgumentParser
internal import OTPServer

/// The abuse limits and the slow-client timeouts of `otpkit-server`.
///
/// The limits count every attempt in the store, so every server of one database counts together.
/// Firebase's Auth emulator throttles nothing, so under `--emulator` the per-address and per-account
/// attempt limits are off unless given; `--sms-limit-per-account` (the service's own per-user send
/// quota) applies in both modes, as it did before.
struct LimitOptions: ParsableArguments {
    // Defaults: Firebase documents 150 verification requests per IP address per hour; sign-ins get
    // more room per address (offices and carriers share addresses) and little per account, which
    // one person rarely signs in to more than a few times an hour.
    static let defaults = RequestLimits(
        window: 3_600, signInsPerAddress: 300, signInsPerAccount: 20, verificationsPerAddress: 150, verificationsPerAccount: 10,
        codeSendsPerAddress: 30)

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
            "Text messages sent for one user per hour, in both modes (default 10; at least 1).", valueName: "count"))
    var codeSendsPerAccount: Int?

    @Flag(
        name: .customLong("trust-forwarded-for"),
        help:
            "Count a client under the last X-Forwarded-For entry instead of the connection's peer: only behind one proxy that appends it, as clients can write the header."
    )
    var trustsForwardedFor = false

    @Option(
        name: .customLong("limit-window"),
        help: ArgumentHelp(
            "The length in seconds of the fixed windows the per-ip and per-account limits count in.", valueName: "seconds"))
    var window: Int64 = Self.defaults.window

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "Close a connection that sends nothing for this many seconds, in the middle of a request (a client sending its body too slowly) or between requests.",
            valueName: "seconds"))
    var idleTimeout: Int = 30

    @Option(
        name: .customLong("request-timeout"),
        help: ArgumentHelp(
            "Close a connection whose request has not arrived whole, head to end, within this many seconds, however steadily it trickles in.",
            valueName: "seconds"))
    var requestTimeout: Int = 30

    func validate() throws {
        let counts = [
            ("--sign-in-limit-per-ip", signInsPerAddress), ("--sign-in-limit-per-account", signInsPerAccount),
            ("--verification-limit-per-ip", verificationsPerAddress), ("--verification-limit-per-account", verificationsPerAccount),
            ("--sms-limit-per-ip", codeSendsPerAddress),
        ]
        for case (let name, let value?) in counts where value < 0 {
            throw ValidationError("\(name) must be 0 (no limit) or more")
        }
        if let codeSendsPerAccount, codeSendsPerAccount < 1 {
            throw ValidationError("--sms-limit-per-account must be at least 1")
        }
        guard window >= 1 else { throw ValidationError("--limit-window must be at least 1 second") }
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1 second") }
        guard requestTimeout >= 1 else { throw ValidationError("--request-timeout must be at least 1 second") }
    }

    /// The limits in force: each given one (0 is none), else the default, or none under the emulator.
    func requestLimits(emulator: Bool) -> RequestLimits {
        func pick(_ given: Int?, _ standard: Int?) -> Int? {
            guard let given else { return emulator ? nil : standard }
            return given == 0 ? nil : given
        }
        let standard = Self.defaults
        return RequestLimits(
            window: window, signInsPerAddress: pick(signInsPerAddress, standard.signInsPerAddress),
            signInsPerAccount: pick(signInsPerAccount, standard.signInsPerAccount),
            verificationsPerAddress: pick(verificationsPerAddress, standard.verificationsPerAddress),
            verificationsPerAccount: pick(verificationsPerAccount, standard.verificationsPerAccount),
            codeSendsPerAddress: pick(codeSendsPerAddress, standard.codeSendsPerAddress))
    }
}
