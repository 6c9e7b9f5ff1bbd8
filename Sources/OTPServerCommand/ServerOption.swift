/// One setting of `otpkit-server`, under the three names it has: the long option on the command
/// line, the key of the `--config` file (the same name) and the environment variable
/// (`OTPKIT_SERVER_` and the name in capitals, dashes as underscores).
///
/// One table, so that the file, the environment and `--help` can never disagree on a name.
struct ServerOption: Sendable {
    /// What a value is, and where in ``ServerSettingsLayer`` it goes.
    enum Kind: Sendable {
        case text(any WritableKeyPath<ServerSettingsLayer, String?> & Sendable)
        /// Repeatable on the command line; an array of strings (or one string) in the file;
        /// separated by whitespace in the environment.
        case texts(any WritableKeyPath<ServerSettingsLayer, [String]?> & Sendable)
        case number(any WritableKeyPath<ServerSettingsLayer, Int?> & Sendable)
        /// `true`/`false` in the file; `1`, `true`, `yes` or `0`, `false`, `no` in the environment.
        case flag(any WritableKeyPath<ServerSettingsLayer, Bool?> & Sendable)
    }

    let name: String
    let kind: Kind

    var environmentVariable: String { Self.environmentPrefix + name.uppercased().replacing("-", with: "_") }

    static let environmentPrefix = "OTPKIT_SERVER_"

    /// Every setting a file or the environment may give: all the command line takes but `--config`.
    static let all: [ServerOption] = [
        ServerOption(name: "db", kind: .text(\.database)),
        ServerOption(name: "key-file", kind: .text(\.keyFile)),
        ServerOption(name: "previous-key-file", kind: .texts(\.previousKeyFiles)),
        ServerOption(name: "signing-key-file", kind: .text(\.signingKeyFile)),
        ServerOption(name: "signing-algorithm", kind: .text(\.signingAlgorithm)),
        ServerOption(name: "project-id", kind: .text(\.projectID)),
        ServerOption(name: "api-key", kind: .texts(\.apiKeys)),
        ServerOption(name: "host", kind: .text(\.host)),
        ServerOption(name: "port", kind: .number(\.port)),
        ServerOption(name: "emulator", kind: .flag(\.emulator)),
        ServerOption(name: "emulator-allow-remote", kind: .flag(\.emulatorAllowsRemote)),
        ServerOption(name: "admin-token-file", kind: .text(\.adminTokenFile)),
        ServerOption(name: "metrics-token-file", kind: .text(\.metricsTokenFile)),
        ServerOption(name: "sms-command", kind: .text(\.smsCommand)),
        ServerOption(name: "sms-arg", kind: .texts(\.smsArguments)),
        ServerOption(name: "sms-env", kind: .texts(\.smsEnvironment)),
        ServerOption(name: "sms-webhook", kind: .text(\.smsWebhook)),
        ServerOption(name: "smtp-url", kind: .text(\.smtpURL)),
        ServerOption(name: "smtp-user", kind: .text(\.smtpUser)),
        ServerOption(name: "smtp-password-file", kind: .text(\.smtpPasswordFile)),
        ServerOption(name: "smtp-ca-file", kind: .text(\.smtpCAFile)),
        ServerOption(name: "mail-from", kind: .text(\.mailFrom)),
        ServerOption(name: "mail-log", kind: .flag(\.mailLog)),
        ServerOption(name: "mail-command", kind: .text(\.mailCommand)),
        ServerOption(name: "mail-arg", kind: .texts(\.mailArguments)),
        ServerOption(name: "mail-env", kind: .texts(\.mailEnvironment)),
        ServerOption(name: "mail-webhook", kind: .text(\.mailWebhook)),
        ServerOption(name: "email-action-url", kind: .text(\.emailActionURL)),
        ServerOption(name: "app-name", kind: .text(\.appName)),
        ServerOption(name: "mail-template", kind: .texts(\.mailTemplates)),
        ServerOption(name: "identity-provider", kind: .texts(\.identityProviders)),
        ServerOption(name: "custom-token-signer", kind: .texts(\.customTokenSigners)),
        ServerOption(name: "firebase-hash-config", kind: .texts(\.firebaseHashConfigs)),
        ServerOption(name: "hmac-import-key", kind: .texts(\.hmacImportKeys)),
        ServerOption(name: "test-phone-number", kind: .texts(\.testPhoneNumbers)),
        ServerOption(name: "passkey-rp-id", kind: .text(\.passkeyRelyingPartyID)),
        ServerOption(name: "passkey-origin", kind: .texts(\.passkeyOrigins)),
        ServerOption(name: "sign-in-limit-per-ip", kind: .number(\.signInsPerAddress)),
        ServerOption(name: "sign-in-limit-per-account", kind: .number(\.signInsPerAccount)),
        ServerOption(name: "sign-up-limit-per-ip", kind: .number(\.signUpsPerAddress)),
        ServerOption(name: "password-change-limit-per-ip", kind: .number(\.passwordChangesPerAddress)),
        ServerOption(name: "password-change-limit-per-account", kind: .number(\.passwordChangesPerAccount)),
        ServerOption(name: "verification-limit-per-ip", kind: .number(\.verificationsPerAddress)),
        ServerOption(name: "verification-limit-per-account", kind: .number(\.verificationsPerAccount)),
        ServerOption(name: "sms-limit-per-ip", kind: .number(\.codeSendsPerAddress)),
        ServerOption(name: "sms-limit-per-account", kind: .number(\.codeSendsPerAccount)),
        ServerOption(name: "email-limit-per-ip", kind: .number(\.emailsPerAddress)),
        ServerOption(name: "trust-forwarded-for", kind: .texts(\.trustedProxies)),
        ServerOption(name: "limit-window", kind: .number(\.limitWindow)),
        ServerOption(name: "idle-timeout", kind: .number(\.idleTimeout)),
        ServerOption(name: "request-timeout", kind: .number(\.requestTimeout)),
        ServerOption(name: "max-connections", kind: .number(\.maximumConnections)),
        ServerOption(name: "purge-interval", kind: .number(\.purgeInterval)),
        ServerOption(name: "audit-retention-days", kind: .number(\.auditRetentionDays)),
        ServerOption(name: "no-audit-log", kind: .flag(\.auditLogOff)),
        ServerOption(name: "console-admin", kind: .texts(\.consoleAdministrators)),
        ServerOption(name: "account-page-provider", kind: .texts(\.accountPageProviders)),
    ]

    /// The option called `name`, if any.
    static func named(_ name: String) -> ServerOption? { all.first { $0.name == name } }
}
