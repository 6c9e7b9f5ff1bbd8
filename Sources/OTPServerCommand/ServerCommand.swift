internal import ArgumentParser
internal import Foundation
internal import Hummingbird
internal import Logging
internal import OTPCore
internal import OTPEnrollment
internal import OTPEnrollmentDatabase
internal import OTPFederation
internal import OTPSealing
internal import OTPServer
internal import Prometheus
internal import ServiceLifecycle

/// `otpkit-server`: Google's Identity Toolkit REST API on OTPKit's store, until SIGTERM or SIGINT,
/// which finish the requests in flight and exit 0.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "otpkit-server",
        abstract:
            "Serve Firebase's Identity Toolkit REST API (sign-up, sign-in with a password or an identity provider, linking, account updates, lookup, multi-factor enrollment and sign-in, admin users) on an OTPKit store.",
        discussion: """
            Prints the port it listens on, alone on one line, once it is ready; GET / then answers 200. \
            SIGTERM or SIGINT finish the requests in flight and exit 0. GET /metrics answers the \
            server's metrics in Prometheus's text format.

            Password sign-ins, second-factor codes and text messages are limited per client address \
            (the connection's peer, IPv6 by its /64 prefix, or with --trust-forwarded-for the last \
            X-Forwarded-For entry) and per account, counted in the store so that every server of \
            one database counts together; a request over a limit answers HTTP 400 \
            TOO_MANY_ATTEMPTS_TRY_LATER and does nothing else. Under --emulator these limits are off \
            unless given, as Firebase's emulator has none.
            """
    )

    @OptionGroup var databaseOptions: DatabaseOptions

    @OptionGroup(title: "Abuse limits") var limitOptions: LimitOptions

    @Option(
        name: .customLong("signing-key-file"),
        help: ArgumentHelp(
            "The ID token signing key, sealed; made on first start (default: the SQLite file's path + .signing-key; required with PostgreSQL).",
            valueName: "file"))
    var signingKeyFile: String?

    @Option(name: .customLong("project-id"), help: ArgumentHelp("The Firebase project id tokens are issued for.", valueName: "id"))
    var projectID: String

    @Option(
        name: .customLong("api-key"),
        help: ArgumentHelp("An API key client calls may carry (repeatable); any key is accepted under --emulator.", valueName: "key"))
    var apiKeys: [String] = []

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 9099

    @Flag(
        help:
            "Behave as Firebase's Auth emulator where tests need it: any API key, admin calls with `Authorization: Bearer owner`, SMS codes listed at GET /emulator/v1/projects/{id}/verificationCodes and never sent."
    )
    var emulator = false

    @Option(
        name: .customLong("sms-command"),
        help: ArgumentHelp(
            "Send the codes of phone factors by running PROGRAM (an absolute path) with the number and the message as its two arguments.",
            valueName: "program"))
    var smsCommand: String?

    @Option(
        name: .customLong("sms-webhook"),
        help: ArgumentHelp(#"Send the codes of phone factors by POSTing {"to":NUMBER,"text":MESSAGE} as JSON to URL."#, valueName: "url"))
    var smsWebhook: String?

    @Option(
        name: .customLong("identity-provider"),
        help: ArgumentHelp(
            "A federated provider whose ID tokens accounts:signInWithIdp accepts, verified against its published keys (repeatable): google.com=CLIENT_ID with Google's issuers and keys, or ID=CLIENT_ID,ISSUER_URL,JWKS_URL_OR_FILE for any OpenID Connect provider. Under --emulator google.com and apple.com also take the emulator's unsigned credentials (JSON claims, or a JWT with alg none), never otherwise.",
            valueName: "provider"))
    var identityProviders: [String] = []

    /// The providers that take the emulator's unsigned credentials under `--emulator` without being configured.
    static let emulatorProviderIDs = [GoogleAuthProvider.id, "apple.com"]

    func validate() throws {
        var providerIDs: Set<String> = []
        for argument in identityProviders {
            let option = try IdentityProviderOption(parsing: argument)
            guard providerIDs.insert(option.settings.providerID).inserted else {
                throw ValidationError("--identity-provider \(option.settings.providerID) is given twice: give each provider once")
            }
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard !projectID.isEmpty, projectID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw ValidationError("--project-id must be letters, digits and dashes, such as demo-project")
        }
        guard [smsCommand, smsWebhook].compactMap({ $0 }).count + (emulator ? 1 : 0) <= 1 else {
            throw ValidationError("--sms-command, --sms-webhook and --emulator (which sends no SMS) are alternatives: pass one")
        }
        guard emulator || !apiKeys.isEmpty else {
            throw ValidationError("give at least one --api-key for client calls, or --emulator to accept any")
        }
    }

    func run() async throws {
        // Standard output carries only the port line.
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let metrics = Self.bootstrapMetrics()
        var logger = Logger(label: "otpkit-server")
        logger.logLevel = .info
        let location = databaseOptions.location
        let sealer: SecretSealer
        do {
            sealer = try databaseOptions.sealer()
        } catch {
            throw ServerFailure("\(error)")
        }
        let signingKeyPath: String
        switch (signingKeyFile, location) {
        case (let file?, _): signingKeyPath = file
        case (nil, .sqlite(let path)): signingKeyPath = path + ".signing-key"
        case (nil, .postgres):
            throw ServerFailure(
                "give --signing-key-file with a PostgreSQL database: every server of one database must sign with the same key")
        }
        let signingKey: IDTokenSigningKey
        do {
            signingKey = try IDTokenKeyFile.loadOrCreate(path: signingKeyPath, sealer: sealer)
        } catch {
            throw ServerFailure(error.description)
        }
        let storeDatabase: EnrollmentDatabase
        do {
            storeDatabase = try await EnrollmentDatabase.open(location, sealer: sealer, postgresPoolSize: 10, logger: logger)
        } catch {
            throw ServerFailure(error.description)
        }
        do {
            try await serve(storeDatabase, signingKey: signingKey, metrics: metrics, logger: logger)
        } catch {
            await storeDatabase.close()
            throw error
        }
        await storeDatabase.close()
    }

    private func serve(
        _ database: EnrollmentDatabase, signingKey: IDTokenSigningKey, metrics: PrometheusCollectorRegistry, logger: Logger
    ) async throws {
        var phone = try phoneDelivery(logger: logger)
        if let sendsPerUser = limitOptions.codeSendsPerAccount { phone.settings.sendsPerUser = sendsPerUser }
        let verifiers = try identityProviders.map { OpenIDTokenVerifier(settings: try IdentityProviderOption(parsing: $0).settings, logger: logger) }
        // The verifiers' HTTP clients are shut down with the phone sender's, whatever ends the server.
        let shutdown: () async -> Void = {
            await phone.shutdown()
            for verifier in verifiers { try? await verifier.shutdown() }
        }
        let service = try MultiFactorService(
            configuration: MultiFactorConfiguration(phone: phone.settings), store: database.store, smsSender: phone.sender,
            identityProviders: tokenVerifiers(verifiers), logger: logger)
        let tokens = await IDTokenIssuer(projectID: projectID, signingKey: signingKey)
        let routes = IdentityToolkitRoutes(
            service: service, tokens: tokens, refreshTokenKeys: database.store.codeDigestKeys ?? database.sealer,
            configuration: IdentityToolkitConfiguration(
                projectID: projectID, apiKeys: Set(apiKeys), isEmulator: emulator, limits: limitOptions.requestLimits(emulator: emulator),
                trustsForwardedFor: limitOptions.trustsForwardedFor),
            verificationCodes: phone.outbox, logger: logger)
        let requestTimeout = limitOptions.requestTimeout
        let router = Router(context: ServerRequestContext.self)
        Self.addMetrics(metrics, to: router)
        routes.addRoutes(to: router)
        let app = Application(
            router: router,
            // A client that stops sending, its body half sent, is cut off after the idle timeout,
            // and one that trickles its request after the request timeout, rather than holding a
            // connection and a task for as long as it likes.
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestDeadlineHandler(timeout: .seconds(Int64(requestTimeout)))],
                    idleTimeout: .seconds(Int64(limitOptions.idleTimeout)))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "otpkit-server"),
            onServerRunning: { channel in
                // Scripts and tests read the port from this line, so it is the only thing on it.
                let line = Array("\(channel.localAddress?.port ?? 0)\n".utf8)
                try? line.withUnsafeBytes { try POSIXFile.standardOutput.writeAll($0) }
            },
            logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            await shutdown()
            throw error
        }
        await shutdown()
    }
}

extension ServerCommand {
    /// The service's ID token verifiers: the configured providers', and under `--emulator` the
    /// emulator's unsigned form in front of them and for ``emulatorProviderIDs``.
    func tokenVerifiers(_ verifiers: [OpenIDTokenVerifier]) -> [any IdentityTokenVerifier] {
        guard emulator else { return verifiers }
        var byProvider: [String: any IdentityTokenVerifier] = [:]
        for providerID in Self.emulatorProviderIDs { byProvider[providerID] = EmulatorIdentityTokenVerifier(providerID: providerID) }
        for verifier in verifiers {
            byProvider[verifier.providerID] = EmulatorIdentityTokenVerifier(providerID: verifier.providerID, signed: verifier)
        }
        return byProvider.keys.sorted().compactMap { byProvider[$0] }
    }
}

/// A start-up failure, printed as one line with what to do.
struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "otpkit-server: " + description }
}
