internal import ArgumentParser
internal import OTPCommandSupport
internal import Logging
internal import OTPEnrollment
internal import OTPEnrollmentDatabase
internal import OTPSealing

/// The database and its sealing keys, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The SQLite database file (created when missing), or a PostgreSQL URL: postgres://user@host:port/database or postgresql://… (libpq's PG* variables give what it leaves out).",
            valueName: "file|url"))
    var database: String

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "The sealing key: 64 hex characters or 32 raw bytes (default: $\(SealingKey.defaultEnvironmentVariable)).", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("previous-key-file"),
        help: ArgumentHelp(
            "An earlier sealing key whose rows still open (repeatable); `reseal` moves them to the current key.", valueName: "file"))
    var previousKeyFiles: [String] = []

    func sealer() throws(CommandFailure) -> SecretSealer {
        do {
            let current = try SealingKey.load(file: keyFile, environmentVariable: SealingKey.defaultEnvironmentVariable)
            var previous: [SealingKey] = []
            for file in previousKeyFiles { previous.append(try SealingKey(contentsOfFile: file)) }
            return try SecretSealer(current: current, previous: previous)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Where `--db` points.
    var location: DatabaseLocation { DatabaseLocation(database) }

    /// Opens the database with the sealing keys.
    func open() async throws(CommandFailure) -> EnrollmentDatabase {
        try await EnrollmentDatabase.opening(location, sealer: try sealer(), logger: Self.silentLogger("OTPKit.totp-enrollment.store"))
    }

    /// Runs `body` with the database, and closes it whatever happens.
    func withDatabase<Result>(_ body: (EnrollmentDatabase) async throws(CommandFailure) -> Result) async throws(CommandFailure) -> Result {
        let database = try await open()
        do throws(CommandFailure) {
            let result = try await body(database)
            await database.close()
            return result
        } catch {
            await database.close()
            throw error
        }
    }

    /// A logger that says nothing short of a crash: the service's info events (enrollment started,
    /// factor enrolled) would interleave with the prompts, and the service's and the PostgreSQL
    /// pool's error events repeat what the command reports as its one line.
    static func silentLogger(_ label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = .critical
        return logger
    }

    /// Runs `body` with the database and the service on it, and closes the database whatever
    /// happens.
    ///
    /// With `sms`, phone factors are on and their codes go through its sender, which is shut down
    /// whatever happens too. `identityProviders` check the ID tokens of federated credentials;
    /// the caller shuts them down.
    func withService<Result>(
        sms: SMSOptions? = nil,
        identityProviders: [any IdentityTokenVerifier] = [],
        _ body: (EnrollmentDatabase, MultiFactorService) async throws(CommandFailure) -> Result
    ) async throws(CommandFailure) -> Result {
        var configuration = MultiFactorConfiguration()
        if let sms {
            do {
                configuration.phone = try sms.settings()
            } catch {
                throw .usage(error.message)
            }
        }
        let delivery = try sms?.delivery()
        do throws(CommandFailure) {
            let result = try await withDatabase { database throws(CommandFailure) in
                let service: MultiFactorService
                do {
                    service = try MultiFactorService(
                        configuration: configuration, store: database.store, smsSender: delivery?.sender, identityProviders: identityProviders,
                        logger: Self.silentLogger("OTPKit.totp-enrollment"))
                } catch {
                    throw CommandFailure.software("\(error)")
                }
                return try await body(database, service)
            }
            await delivery?.shutdown()
            return result
        } catch {
            await delivery?.shutdown()
            throw error
        }
    }
}
