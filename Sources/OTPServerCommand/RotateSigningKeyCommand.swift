internal import ArgumentParser
internal import Foundation
internal import OTPCore
internal import OTPAuthenticationDatabase
internal import OTPSealing
internal import OTPServer

/// `otpkit-server rotate-signing-key`: a new ID token signing key in the signing key file, the
/// one it replaces kept for verification until every token it signed has expired.
struct RotateSigningKeyCommand: ParsableCommand {
    /// The first argument that selects this command rather than the server.
    static let name = "rotate-signing-key"

    static let configuration = CommandConfiguration(
        commandName: "otpkit-server \(name)",
        abstract: "Replace the ID token signing key: a new key signs from now on, and the one it replaces still verifies.",
        discussion: """
            Reads the same --config file and $OTPKIT_SERVER_ variables as the server, of which it uses \
            the database, the sealing keys and the signing key file. The retired key stays in the file, \
            published in the key set and accepted, for an hour and five minutes (the ID token lifetime \
            and time for every server to notice); a later rotation drops it then. Running servers \
            re-read the file within \(IDTokenKeyFileMonitor.checkInterval) seconds, and at once when \
            a token names the new key. Prints the new key id on one line. --algorithm changes the \
            algorithm new tokens are signed with; the retired key keeps its own until it is dropped.
            """
    )

    @Option(help: ArgumentHelp("The server's JSON settings file ($OTPKIT_SERVER_CONFIG names it too).", valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp("The server's database: its SQLite file's path + .signing-key is the default signing key file.", valueName: "file|url"))
    var database: String?

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "The sealing key: 64 hex characters or 32 raw bytes (default: $\(SealingKey.defaultEnvironmentVariable)).", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("previous-key-file"),
        help: ArgumentHelp("An earlier sealing key that still opens keys in the file (repeatable).", valueName: "file"))
    var previousKeyFiles: [String] = []

    @Option(
        name: .customLong("signing-key-file"),
        help: ArgumentHelp("The ID token signing key file (default: the SQLite file's path + .signing-key).", valueName: "file"))
    var signingKeyFile: String?

    @Option(
        help: ArgumentHelp(
            "The new key's algorithm: RS256 (as Firebase signs) or ES256 (ECDSA P-256, cheaper to sign with) (default: the current signing key's).",
            valueName: "RS256|ES256"))
    var algorithm: String?

    /// For tests: a retention short enough that a second rotation drops the first key.
    @Option(name: .customLong("retired-key-retention"), help: .private)
    var retention: Int64 = IDTokenKeyFile.defaultRetention

    func validate() throws {
        guard retention >= 0 else { throw ValidationError("--retired-key-retention must be 0 seconds or more") }
        if let algorithm { _ = try ServerSettings.signingAlgorithm(algorithm, option: "--algorithm") }
    }

    func run() throws {
        let commandLine = ServerSettingsLayer(
            database: database, keyFile: keyFile, previousKeyFiles: previousKeyFiles.isEmpty ? nil : previousKeyFiles,
            signingKeyFile: signingKeyFile)
        let layer = try commandLine.stacked(config: config, environment: ProcessInfo.processInfo.environment)
        var options = DatabaseOptions()
        options.keyFile = layer.keyFile
        options.previousKeyFiles = layer.previousKeyFiles ?? []
        let path: String
        if let file = layer.signingKeyFile {
            path = file
        } else if let database = layer.database, !database.isEmpty {
            path = try ServerCommand.signingKeyPath(nil, database: DatabaseLocation(database))
        } else {
            throw ServerFailure("give the signing key file: --signing-key-file FILE, or --db FILE for its default beside the SQLite database")
        }
        let sealer: SecretSealer
        do {
            sealer = try options.sealer()
        } catch {
            throw ServerFailure("\(error)")
        }
        let newAlgorithm = try algorithm.map { (name) throws(ValidationError) in try ServerSettings.signingAlgorithm(name, option: "--algorithm") }
        let keys: IDTokenSigningKeySet
        do {
            keys = try IDTokenKeyFile.rotate(
                path: path, sealer: sealer, now: Int64(Date().timeIntervalSince1970), retention: retention, algorithm: newAlgorithm)
        } catch {
            throw ServerFailure(error.description)
        }
        let retired = keys.keys.dropFirst().map(\.kid).joined(separator: ", ")
        print("\(path): ID tokens are now signed with key \(keys.signing.kid) (\(keys.signing.algorithm.rawValue)); still verifying \(retired)")
    }
}
