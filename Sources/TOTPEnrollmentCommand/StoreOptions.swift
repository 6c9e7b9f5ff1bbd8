internal import ArgumentParser
internal import OTPCommandSupport
internal import Logging
internal import OTPAuthentication
internal import OTPAuthenticationDatabase
internal import OTPSealing

/// The database and its sealing keys, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @OptionGroup var databaseOptions: DatabaseOptions

    /// `--key-file`, which hints repeat.
    var keyFile: String? { databaseOptions.keyFile }

    func sealer() throws(CommandFailure) -> SecretSealer {
        do {
            return try databaseOptions.sealer()
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Where `--db` points.
    var location: DatabaseLocation { databaseOptions.location }

    /// Opens the database with the sealing keys.
    func open() async throws(CommandFailure) -> any DurableAuthStore {
        try await location.opening(sealer: try sealer(), logger: Self.silentLogger("OTPKit.totp-enrollment.store"))
    }

    /// Runs `body` with the database, and closes it whatever happens.
    func withDatabase<Result>(_ body: (any DurableAuthStore) async throws(CommandFailure) -> Result) async throws(CommandFailure) -> Result {
        let database = try await open()
        do throws(CommandFailure) {
            let result = try await body(database)
            await database.closeQuietly()
            return result
        } catch {
            await database.closeQuietly()
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
    /// `passwords` read the password hashes (those of an import's Firebase project, say).
    /// With `sms`, phone factors are on and their codes go through its sender, which is shut down
    /// whatever happens too. `identityProviders` check the ID tokens of federated credentials;
    /// the caller shuts them down.
    func withService<Result>(
        sms: SMSOptions? = nil,
        identityProviders: [any IdentityTokenVerifier] = [],
        passwords: PasswordSettings = PasswordSettings(),
        _ body: (any DurableAuthStore, MultiFactorService) async throws(CommandFailure) -> Result
    ) async throws(CommandFailure) -> Result {
        var configuration = MultiFactorConfiguration()
        configuration.passwords = passwords
        if let sms {
            do {
                configuration.phone = try sms.settings()
            } catch {
                throw .usage(error.message)
            }
        }
        let sender = try sms?.sender()
        return try await withDatabase { database throws(CommandFailure) in
            let service: MultiFactorService
            do {
                service = try MultiFactorService(
                    configuration: configuration, store: database, smsSender: sender, identityProviders: identityProviders,
                    logger: Self.silentLogger("OTPKit.totp-enrollment"))
            } catch {
                throw CommandFailure.software("\(error)")
            }
            return try await body(database, service)
        }
    }
}
