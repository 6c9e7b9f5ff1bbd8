internal import ArgumentParser
internal import OTPEnrollment
internal import OTPEnrollmentDatabase

/// Every setting of one `otpkit-server` run, resolved: the command line over the environment
/// (`OTPKIT_SERVER_*`) over the `--config` file over the defaults, and checked.
struct ServerSettings: Sendable {
    var database: String
    var keyFile: String?
    var previousKeyFiles: [String]
    var signingKeyFile: String?
    var projectID: String
    var apiKeys: [String]
    var host: String
    var port: Int
    var emulator: Bool
    var smsCommand: String?
    var smsWebhook: String?
    var identityProviders: [IdentityProviderOption]
    /// Number → fixed code.
    var testPhoneNumbers: [String: String]

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
        apiKeys = layer.apiKeys ?? []
        host = layer.host ?? "127.0.0.1"
        port = layer.port ?? 9099
        emulator = layer.emulator ?? false
        smsCommand = layer.smsCommand
        smsWebhook = layer.smsWebhook
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard [smsCommand, smsWebhook].compactMap({ $0 }).count + (emulator ? 1 : 0) <= 1 else {
            throw ValidationError("--sms-command, --sms-webhook and --emulator (which sends no SMS) are alternatives: pass one")
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
        testPhoneNumbers = try TestPhoneNumberOption.parse(layer.testPhoneNumbers ?? [])
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
