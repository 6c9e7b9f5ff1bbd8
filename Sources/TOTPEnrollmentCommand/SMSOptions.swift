internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPSMS

/// How the codes of phone second factors are sent, shared by every command that may send one
/// (`enroll --phone`, and `signin`, `enroll` and `recovery-codes --generate` for a user whose
/// second factor is a phone): at most one sender, plus test numbers that need none.
struct SMSOptions: ParsableArguments {
    @Option(
        name: .customLong("sms-command"),
        help: ArgumentHelp(
            "Send codes by running PROGRAM (a path, or a name looked up in PATH) with the --sms-arg arguments and the message on its standard input, in an environment of PATH, LANG and the --sms-env variables.",
            valueName: "program"))
    var command: String?

    @Option(
        name: .customLong("sms-arg"),
        help: ArgumentHelp(
            "An argument of the --sms-command program (repeatable): {to} is the number (E.164), {text} the message, anything else is passed as written (default: {to}). With {text} the message, code included, is an argument, which every local user can read in /proc.",
            valueName: "arg"))
    var commandArguments: [String] = []

    @Option(
        name: .customLong("sms-env"),
        help: ArgumentHelp(
            "A variable of this environment that the --sms-command program gets too (repeatable), such as a gateway's credentials.",
            valueName: "name"))
    var commandEnvironment: [String] = []

    @Option(
        name: .customLong("sms-webhook"),
        help: ArgumentHelp(#"Send codes by POSTing {"to":NUMBER,"text":MESSAGE} as JSON to URL."#, valueName: "url"))
    var webhook: String?

    @Option(
        name: .customLong("sms-header"),
        help: ArgumentHelp("A header sent with every --sms-webhook request, 'Name: value' (repeatable).", valueName: "header"))
    var webhookHeaders: [String] = []

    @Option(
        name: .customLong("sms-twilio-account"),
        help: ArgumentHelp(
            "Send codes through Twilio's Messages API as this account SID (AC…), with the auth token from --sms-twilio-token-file or $\(Self.twilioTokenVariable).",
            valueName: "sid"))
    var twilioAccount: String?

    @Option(
        name: .customLong("sms-twilio-token-file"),
        help: ArgumentHelp(
            "The file holding the Twilio auth token (default: $\(Self.twilioTokenVariable)); never an argument, which the process list would show.",
            valueName: "file"))
    var twilioTokenFile: String?

    @Option(
        name: .customLong("sms-from"),
        help: ArgumentHelp(
            "With --sms-twilio-account: the Twilio number (E.164) or sender id the messages come from, or a messaging service SID (MG…).",
            valueName: "number"))
    var from: String?

    @Option(
        name: .customLong("sms-twilio-base-url"),
        help: ArgumentHelp("A Twilio-compatible gateway to use instead of \(TwilioSMSSender.twilioBaseURL).", valueName: "url"))
    var twilioBaseURL: String?

    @Flag(
        name: .customLong("sms-log"),
        help: "Development only: print each message, code included, to standard error instead of sending it.")
    var log = false

    @Option(
        name: .customLong("test-phone-number"),
        help: ArgumentHelp(
            "A fictional number (E.164) and its fixed six-digit code, such as +16505553434=123456: no message is sent to it, so it needs no sender (repeatable).",
            valueName: "number=code"))
    var testPhoneNumbers: [String] = []

    @Option(
        name: .customLong("phone-region"),
        help: ArgumentHelp(
            "The region (ISO 3166 alpha-2, such as US) numbers in national form are read in (default: international form only).",
            valueName: "region"))
    var region: String?

    /// Where the Twilio auth token comes from when no file is named.
    static let twilioTokenVariable = "TWILIO_AUTH_TOKEN"

    /// The sender options given, by their flag names.
    var senderFlags: [String] {
        [
            command.map { _ in "--sms-command" }, webhook.map { _ in "--sms-webhook" }, twilioAccount.map { _ in "--sms-twilio-account" },
            log ? "--sms-log" : nil,
        ].compactMap { $0 }
    }

    /// Whether a sender was chosen.
    var hasSender: Bool { !senderFlags.isEmpty }

    /// What to say when a code must go to a real number and no sender was chosen.
    static let missingSender =
        "no SMS sender: pass --sms-command PROGRAM, --sms-webhook URL, --sms-twilio-account SID or --sms-log (or use a --test-phone-number)"

    func validate() throws {
        // Two senders would leave one silently unused.
        guard senderFlags.count <= 1 else {
            throw ValidationError("\(senderFlags.joined(separator: ", ")) are alternatives: pass one SMS sender")
        }
        if !commandArguments.isEmpty || !commandEnvironment.isEmpty, command == nil {
            throw ValidationError("--sms-arg and --sms-env configure --sms-command: pass it too")
        }
        if !webhookHeaders.isEmpty, webhook == nil { throw ValidationError("--sms-header goes with --sms-webhook: pass it too") }
        if twilioAccount == nil, twilioTokenFile != nil || from != nil || twilioBaseURL != nil {
            throw ValidationError("--sms-twilio-token-file, --sms-from and --sms-twilio-base-url go with --sms-twilio-account: pass it too")
        }
        if twilioAccount != nil, from == nil {
            throw ValidationError("--sms-twilio-account needs --sms-from NUMBER, the Twilio number the messages come from")
        }
        _ = try headers()
        _ = try settings()
    }

    /// The `--sms-header` values as name and value.
    func headers() throws(ValidationError) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        for header in webhookHeaders {
            guard let colon = header.firstIndex(of: ":") else {
                throw ValidationError("--sms-header \(header.debugDescription) is not 'Name: value'")
            }
            headers.append((String(header[..<colon].trimmingSpaces), String(header[header.index(after: colon)...].trimmingSpaces)))
        }
        return headers
    }

    /// Phone factors on, with the test numbers and the default region.
    func settings() throws(ValidationError) -> PhoneSettings {
        var numbers: [String: String] = [:]
        for entry in testPhoneNumbers {
            guard let equals = entry.lastIndex(of: "=") else {
                throw ValidationError("--test-phone-number \(entry.debugDescription) is not NUMBER=CODE, such as +16505553434=123456")
            }
            numbers[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let settings = PhoneSettings(isEnabled: true, defaultRegion: region?.uppercased(), testPhoneNumbers: numbers)
        do {
            try MultiFactorConfiguration(phone: settings).validate()
        } catch {
            throw ValidationError("--test-phone-number: \(error)")
        }
        return settings
    }

    /// Whether `number`, as typed, is one of the test numbers (spelled with or without spaces,
    /// dashes, dots and parentheses, as the service matches them).
    func isTestNumber(_ number: String) -> Bool {
        let compact = number.filter { !" -.()".contains($0) }
        return testPhoneNumbers.contains { $0.hasPrefix(compact + "=") }
    }
}
