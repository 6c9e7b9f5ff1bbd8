internal import ArgumentParser
internal import OTPCore
internal import OTPAuthentication
internal import OTPAuthenticationDatabase
internal import OTPFederation
internal import OTPServer

/// Every setting of one `otpkit-server` run, resolved: the command line over the environment
/// (`OTPKIT_SERVER_*`) over the `--config` file over the defaults, and checked.
struct ServerSettings: Sendable {
    var database: String
    var keyFile: String?
    var previousKeyFiles: [String]
    var signingKeyFile: String?
    /// The algorithm of the key made when there is no signing key file yet.
    var signingAlgorithm: IDTokenSigningAlgorithm
    var projectID: String
    var apiKeys: [String]
    var host: String
    var port: Int
    var emulator: Bool
    /// Whether the emulator may listen beyond loopback and answer any `Host`.
    var emulatorAllowsRemote: Bool
    var adminTokenFile: String?
    /// The token in ``adminTokenFile``, read by ``loadTokens()``.
    var adminToken: String?
    var metricsTokenFile: String?
    /// The token in ``metricsTokenFile``, read by ``loadTokens()``: `GET /metrics` needs it when set.
    var metricsToken: String?
    var smsCommand: String?
    /// The `--sms-command` program's arguments as templates: `{to}`, `{text}` or literal.
    var smsArguments: [String]
    /// Variables the `--sms-command` program gets from the server's environment.
    var smsEnvironment: [String]
    var smsWebhook: String?
    /// How email actions' messages leave the server: ``MailSettings``.
    var mail: MailSettings
    var identityProviders: [IdentityProviderOption]
    /// The service accounts whose custom tokens are accepted, their certificates read.
    var customTokenSigners: [CustomTokenSigner]
    /// The Firebase projects whose imported password hashes sign in, their files read.
    var firebaseHashConfigs: [FirebaseHashConfig]
    /// The keys of imported HMAC password hashes, their files read.
    var hmacImportKeys: [HMACImportKey]
    /// Number → fixed code.
    var testPhoneNumbers: [String: String]
    /// The relying party of passkeys; off without `--passkey-rp-id`.
    var passkeys: PasskeySettings
    /// The per-address and per-account limits in force.
    var limits: RequestLimits
    /// The text messages one user may be sent per hour (`PhoneSettings.sendsPerUser`); the
    /// service's default when `nil`.
    var codeSendsPerAccount: Int?
    /// The proxies whose `X-Forwarded-For` is believed, each an IP address as given
    /// (`IdentityToolkitConfiguration` compares them in one spelling).
    var trustedProxies: [String]
    /// Seconds.
    var idleTimeout: Int
    /// Seconds.
    var requestTimeout: Int
    /// Connections served at once; more wait, unaccepted.
    var maximumConnections: Int
    /// Seconds between purges of expired records; 0 for none.
    var purgeInterval: Int
    /// Whether security events are recorded, and how long they are kept.
    var auditLog: AuditSettings
    /// The accounts (by email address) that may use the admin console.
    var consoleAdministrators: [String]
    /// The providers the account page's sign-in offers (`--account-page-provider`).
    var accountPageProviders: [OpenIDAuthorizationClient]

    /// About 13 months, as Google Cloud keeps its audit logs: a year of events to compare with.
    static let defaultAuditRetentionDays = 400

    /// An hour: what expired waits that long at most, and a purge a minute of a busy store costs little.
    static let defaultPurgeInterval = 3600

    /// The settings of `layer` (the sources already merged), with the defaults.
    ///
    /// - Throws: `ValidationError` saying which setting is missing or wrong and how to give it.
    init(_ layer: ServerSettingsLayer) throws(ValidationError) {
        guard let database = layer.database, !database.isEmpty else {
            throw ValidationError("give the database: --db FILE|postgres://…, \"db\" in the --config file, or $OTPKIT_SERVER_DB")
        }
        guard let projectID = layer.projectID else {
            throw ValidationError("give the project: --project-id ID, \"project-id\" in the --config file, or $OTPKIT_SERVER_PROJECT_ID")
        }
        guard !projectID.isEmpty, projectID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw ValidationError("--project-id must be letters, digits and dashes, such as demo-project")
        }
        self.database = database
        self.projectID = projectID
        keyFile = layer.keyFile
        previousKeyFiles = layer.previousKeyFiles ?? []
        signingKeyFile = layer.signingKeyFile
        signingAlgorithm = try Self.signingAlgorithm(layer.signingAlgorithm, option: "--signing-algorithm")
        apiKeys = layer.apiKeys ?? []
        host = layer.host ?? "127.0.0.1"
        port = layer.port ?? 9099
        emulator = layer.emulator ?? false
        emulatorAllowsRemote = layer.emulatorAllowsRemote ?? false
        adminTokenFile = layer.adminTokenFile
        metricsTokenFile = layer.metricsTokenFile
        smsCommand = layer.smsCommand
        // The message on standard input by default: as an argument, local users could read it.
        smsArguments = layer.smsArguments ?? ["{to}"]
        smsEnvironment = layer.smsEnvironment ?? []
        smsWebhook = layer.smsWebhook
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        mail = try MailSettings(layer, emulator: emulator)
        guard [smsCommand, smsWebhook].compactMap({ $0 }).count + (emulator ? 1 : 0) <= 1 else {
            throw ValidationError("--sms-command, --sms-webhook and --emulator (which sends no SMS) are alternatives: pass one")
        }
        if smsCommand == nil, layer.smsArguments != nil || layer.smsEnvironment != nil {
            throw ValidationError("--sms-arg and --sms-env configure --sms-command: pass it too")
        }
        if emulator, !emulatorAllowsRemote, !LoopbackHost.contains(host: host) {
            throw ValidationError(
                "--emulator accepts any API key and Bearer owner as an administrator, so it listens on loopback only (127.0.0.1, ::1, localhost): give --emulator-allow-remote to serve it on \(host) anyway"
            )
        }
        guard emulator || !apiKeys.isEmpty else {
            throw ValidationError("give at least one --api-key for client calls, or --emulator to accept any")
        }
        var providers: [IdentityProviderOption] = []
        for argument in layer.identityProviders ?? [] {
            let option = try IdentityProviderOption(parsing: argument)
            guard !providers.contains(where: { $0.settings.providerID == option.settings.providerID }) else {
                throw ValidationError("--identity-provider \(option.settings.providerID) is given twice: give each provider once")
            }
            providers.append(option)
        }
        identityProviders = providers
        customTokenSigners = try (layer.customTokenSigners ?? []).map { (argument) throws(ValidationError) in
            try CustomTokenSignerOption(parsing: argument).signer
        }
        hmacImportKeys = try (layer.hmacImportKeys ?? []).map { (argument) throws(ValidationError) in try HMACImportKeyOption.read(argument) }
        firebaseHashConfigs = try (layer.firebaseHashConfigs ?? []).map { (path) throws(ValidationError) in
            try FirebaseHashConfigOption.read(path)
        }
        var keyIDs: Set<String> = []
        for signer in customTokenSigners {
            for kid in signer.keys.keys where !keyIDs.insert(kid).inserted {
                throw ValidationError("--custom-token-signer: two service accounts have a key of id \(kid): give each service account once")
            }
        }
        testPhoneNumbers = try TestPhoneNumberOption.parse(layer.testPhoneNumbers ?? [])
        passkeys = PasskeySettings(relyingPartyID: layer.passkeyRelyingPartyID, relyingPartyName: projectID, origins: Set(layer.passkeyOrigins ?? []))
        if passkeys.relyingPartyID == nil, layer.passkeyOrigins != nil {
            throw ValidationError("--passkey-origin configures passkeys for --passkey-rp-id: pass it too")
        }
        do {
            try MultiFactorConfiguration(passkeys: passkeys).validate()
        } catch {
            throw ValidationError("--passkey-rp-id, --passkey-origin: \(error)")
        }
        limits = try Self.limits(layer, emulator: emulator)
        codeSendsPerAccount = layer.codeSendsPerAccount
        if let codeSendsPerAccount, codeSendsPerAccount < 1 { throw ValidationError("--sms-limit-per-account must be at least 1") }
        trustedProxies = layer.trustedProxies ?? []
        for address in trustedProxies where ClientAddress.canonical(parsing: address) == nil {
            throw ValidationError(
                "--trust-forwarded-for \(address.debugDescription) is not an IP address: give the address of the proxy in front, such as 127.0.0.1"
            )
        }
        idleTimeout = layer.idleTimeout ?? LimitOptions.defaultTimeout
        requestTimeout = layer.requestTimeout ?? LimitOptions.defaultTimeout
        guard idleTimeout >= 1 else { throw ValidationError("--idle-timeout must be at least 1 second") }
        guard requestTimeout >= 1 else { throw ValidationError("--request-timeout must be at least 1 second") }
        maximumConnections = layer.maximumConnections ?? LimitOptions.defaultMaximumConnections
        guard maximumConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        purgeInterval = layer.purgeInterval ?? Self.defaultPurgeInterval
        guard purgeInterval >= 0 else { throw ValidationError("--purge-interval must be 0 (no purge) or a number of seconds") }
        let days = layer.auditRetentionDays ?? Self.defaultAuditRetentionDays
        guard (1...36_500).contains(days) else {
            throw ValidationError("--audit-retention-days must be 1 to 36500 days; --no-audit-log records no events at all")
        }
        auditLog = AuditSettings(isEnabled: layer.auditLogOff != true, retention: Int64(days) * 86_400)
        consoleAdministrators = try (layer.consoleAdministrators ?? []).map { (address) throws(ValidationError) in
            guard let normalized = EmailAddress.normalized(address) else {
                throw ValidationError(
                    "--console-admin \(address.debugDescription) is not an email address: give the address the administrator signs in with")
            }
            return normalized
        }
        var pageProviders: [OpenIDAuthorizationClient] = []
        for argument in layer.accountPageProviders ?? [] {
            let client = try AccountPageProviderOption.client(parsing: argument, verified: identityProviders)
            guard !pageProviders.contains(where: { $0.settings.providerID == client.settings.providerID }) else {
                throw ValidationError("--account-page-provider \(client.settings.providerID) is given twice: give each provider once")
            }
            pageProviders.append(client)
        }
        accountPageProviders = pageProviders
    }

    /// The limits in force: each given one (0 is none), else the default, or none under the emulator.
    private static func limits(_ layer: ServerSettingsLayer, emulator: Bool) throws(ValidationError) -> RequestLimits {
        let counts = [
            ("sign-in-limit-per-ip", layer.signInsPerAddress), ("sign-in-limit-per-account", layer.signInsPerAccount),
            ("sign-up-limit-per-ip", layer.signUpsPerAddress), ("verification-limit-per-ip", layer.verificationsPerAddress),
            ("verification-limit-per-account", layer.verificationsPerAccount), ("sms-limit-per-ip", layer.codeSendsPerAddress),
            ("password-change-limit-per-ip", layer.passwordChangesPerAddress),
            ("password-change-limit-per-account", layer.passwordChangesPerAccount), ("email-limit-per-ip", layer.emailsPerAddress),
        ]
        for case (let name, let value?) in counts where value < 0 {
            throw ValidationError("--\(name) must be 0 (no limit) or more")
        }
        let window = layer.limitWindow.map(Int64.init) ?? LimitOptions.defaults.window
        guard window >= 1 else { throw ValidationError("--limit-window must be at least 1 second") }
        func pick(_ given: Int?, _ standard: Int?) -> Int? {
            guard let given else { return emulator ? nil : standard }
            return given == 0 ? nil : given
        }
        let standard = LimitOptions.defaults
        return RequestLimits(
            window: window, signInsPerAddress: pick(layer.signInsPerAddress, standard.signInsPerAddress),
            signInsPerAccount: pick(layer.signInsPerAccount, standard.signInsPerAccount),
            verificationsPerAddress: pick(layer.verificationsPerAddress, standard.verificationsPerAddress),
            verificationsPerAccount: pick(layer.verificationsPerAccount, standard.verificationsPerAccount),
            codeSendsPerAddress: pick(layer.codeSendsPerAddress, standard.codeSendsPerAddress),
            signUpsPerAddress: pick(layer.signUpsPerAddress, standard.signUpsPerAddress),
            passwordChangesPerAddress: pick(layer.passwordChangesPerAddress, standard.passwordChangesPerAddress),
            passwordChangesPerAccount: pick(layer.passwordChangesPerAccount, standard.passwordChangesPerAccount),
            emailsPerAddress: pick(layer.emailsPerAddress, standard.emailsPerAddress))
    }

    /// The algorithm `name` names (RS256 when `nil`), for `option`.
    ///
    /// - Throws: `ValidationError` naming the accepted values.
    static func signingAlgorithm(_ name: String?, option: String) throws(ValidationError) -> IDTokenSigningAlgorithm {
        guard let name else { return .rs256 }
        guard let algorithm = IDTokenSigningAlgorithm(rawValue: name.uppercased()) else {
            throw ValidationError("\(option) must be one of \(IDTokenSigningAlgorithm.names), not \(name)")
        }
        return algorithm
    }

    /// Reads the tokens of ``adminTokenFile`` and ``metricsTokenFile``, those given.
    ///
    /// - Throws: ``TokenFileError`` when a file cannot be read or its token is unfit.
    mutating func loadTokens() throws(TokenFileError) {
        adminToken = try adminTokenFile.map { (path) throws(TokenFileError) in try TokenFile.read(path: path, kind: "admin") }
        metricsToken = try metricsTokenFile.map { (path) throws(TokenFileError) in try TokenFile.read(path: path, kind: "metrics") }
    }

    /// `--db`, `--key-file` and `--previous-key-file` as the store opener takes them.
    var databaseOptions: DatabaseOptions {
        var options = DatabaseOptions()
        options.database = database
        options.keyFile = keyFile
        options.previousKeyFiles = previousKeyFiles
        return options
    }
}
