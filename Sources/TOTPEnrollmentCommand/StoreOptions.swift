internal import ArgumentParser
internal import OTPCommandSupport
internal import Logging
internal import OTPEnrollment
internal import OTPEnrollmentSQLite
internal import OTPSealing

/// The database and its sealing keys, shared by every subcommand.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("The SQLite database file (created when missing).", valueName: "file"))
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

    func openStore() async throws(CommandFailure) -> SQLiteEnrollmentStore {
        let sealer = try sealer()
        do {
            return try await SQLiteEnrollmentStore.open(path: database, sealer: sealer)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Runs `body` with the store and the service on it, and closes the store whatever happens.
    ///
    /// With `sms`, phone factors are on and their codes go through its sender, which is shut down
    /// whatever happens too. `identityProviders` check the ID tokens of federated credentials;
    /// the caller shuts them down.
    func withService<Result>(
        sms: SMSOptions? = nil,
        identityProviders: [any IdentityTokenVerifier] = [],
        _ body: (SQLiteEnrollmentStore, MultiFactorService) async throws(CommandFailure) -> Result
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
        let store: SQLiteEnrollmentStore
        do throws(CommandFailure) {
            store = try await openStore()
        } catch {
            await delivery?.shutdown()
            throw error
        }
        do throws(CommandFailure) {
            let service: MultiFactorService
            do {
                // The service's info events (enrollment started, factor enrolled) would interleave
                // with the prompts, and its error events (a store failure, an unsent message)
                // repeat what the command reports as its one line.
                var logger = Logger(label: "OTPKit.totp-enrollment")
                logger.logLevel = .critical
                service = try MultiFactorService(
                    configuration: configuration, store: store, smsSender: delivery?.sender, identityProviders: identityProviders, logger: logger)
            } catch {
                throw CommandFailure.software("\(error)")
            }
            let result = try await body(store, service)
            await delivery?.shutdown()
            try? await store.close()
            return result
        } catch {
            await delivery?.shutdown()
            try? await store.close()
            throw error
        }
    }
}
