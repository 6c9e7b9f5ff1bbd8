/// The settings one source gives — the command line, the environment or the `--config` file —
/// each `nil` where that source is silent.
///
/// Layers stack: ``merged(over:)`` keeps this layer's values and fills its gaps from a lower one,
/// which is how the command line overrides the environment, and the environment the file. A
/// repeatable setting (`api-key`, …) is one value: the highest source that gives it replaces
/// the lower ones' lists rather than adding to them, so a flag can take a key out.
struct ServerSettingsLayer: Sendable, Equatable {
    var database: String?
    var keyFile: String?
    var previousKeyFiles: [String]?
    var signingKeyFile: String?
    var signingAlgorithm: String?
    var projectID: String?
    var apiKeys: [String]?
    var host: String?
    var port: Int?
    var emulator: Bool?
    var emulatorAllowsRemote: Bool?
    var adminTokenFile: String?
    var metricsTokenFile: String?
    var smsCommand: String?
    var smsArguments: [String]?
    var smsEnvironment: [String]?
    var smsWebhook: String?
    var smtpURL: String?
    var smtpUser: String?
    var smtpPasswordFile: String?
    var smtpCAFile: String?
    var mailFrom: String?
    var mailLog: Bool?
    var mailCommand: String?
    var mailArguments: [String]?
    var mailEnvironment: [String]?
    var mailWebhook: String?
    var emailActionURL: String?
    var appName: String?
    var mailTemplates: [String]?
    var identityProviders: [String]?
    var customTokenSigners: [String]?
    var firebaseHashConfigs: [String]?
    var hmacImportKeys: [String]?
    var testPhoneNumbers: [String]?
    var passkeyRelyingPartyID: String?
    var passkeyOrigins: [String]?
    var signInsPerAddress: Int?
    var signInsPerAccount: Int?
    var signUpsPerAddress: Int?
    var passwordChangesPerAddress: Int?
    var passwordChangesPerAccount: Int?
    var verificationsPerAddress: Int?
    var verificationsPerAccount: Int?
    var codeSendsPerAddress: Int?
    var codeSendsPerAccount: Int?
    var emailsPerAddress: Int?
    var trustedProxies: [String]?
    var limitWindow: Int?
    var idleTimeout: Int?
    var requestTimeout: Int?
    var maximumConnections: Int?
    var purgeInterval: Int?
    var auditRetentionDays: Int?
    var auditLogOff: Bool?
    var consoleAdministrators: [String]?
    var accountPageProviders: [String]?

    /// This layer, with what it leaves out taken from `lower`.
    func merged(over lower: ServerSettingsLayer) -> ServerSettingsLayer {
        var result = self
        for option in ServerOption.all {
            switch option.kind {
            case .text(let path): result[keyPath: path] = self[keyPath: path] ?? lower[keyPath: path]
            case .texts(let path): result[keyPath: path] = self[keyPath: path] ?? lower[keyPath: path]
            case .number(let path): result[keyPath: path] = self[keyPath: path] ?? lower[keyPath: path]
            case .flag(let path): result[keyPath: path] = self[keyPath: path] ?? lower[keyPath: path]
            }
        }
        return result
    }

    /// This layer (the command line's) over the environment's over the `--config` file's: `config`,
    /// else the file `$OTPKIT_SERVER_CONFIG` names.
    ///
    /// - Throws: ``ServerConfigurationError`` for a file or variable that cannot be read.
    func stacked(config: String?, environment: [String: String]) throws(ServerConfigurationError) -> ServerSettingsLayer {
        let fromEnvironment = try ServerSettingsLayer(environment: environment)
        var fromFile = ServerSettingsLayer()
        if let file = config ?? environment[Self.configVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            fromFile = try ServerConfigurationFile.load(path: file)
        }
        return merged(over: fromEnvironment.merged(over: fromFile))
    }
}
