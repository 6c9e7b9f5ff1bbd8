internal import ArgumentParser
internal import Foundation
internal import Hummingbird
internal import Logging
internal import OTPCore
internal import OTPAuthentication
internal import OTPAuthenticationDatabase
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
            `otpkit-server rotate-signing-key` replaces the ID token signing key (see its --help).

            Prints the port it listens on, alone on one line, once it is ready; GET / then answers 200. \
            SIGTERM or SIGINT finish the requests in flight and exit 0. GET /metrics answers the \
            server's metrics in Prometheus's text format.

            Password sign-ins, new accounts, second-factor codes and text messages are limited per client address \
            (the connection's peer, IPv6 by its /64 prefix, or from a --trust-forwarded-for proxy the last \
            X-Forwarded-For entry) and per account, counted in the store so that every server of \
            one database counts together; a request over a limit answers HTTP 400 \
            TOO_MANY_ATTEMPTS_TRY_LATER and does nothing else. Under --emulator these limits are off \
            unless given, as Firebase's emulator has none.
            """
    )

    @Option(
        help: ArgumentHelp(
            "A JSON file of settings: one object whose keys are these long options (\"db\", \"project-id\", \"api-key\", \"sign-up-limit-per-ip\", \"idle-timeout\", …) with a string, a number (port, limits, timeouts), true or false (emulator), or an array of strings (repeatable options). Each option is also read from $OTPKIT_SERVER_ and its name in capitals, dashes as underscores ($OTPKIT_SERVER_PROJECT_ID; lists separated by spaces). The command line wins over the environment, the environment over the file ($OTPKIT_SERVER_CONFIG names it too), the file over the defaults; a repeatable option given by a higher source replaces the lower ones' list.",
            valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The SQLite database file (created when missing), or a PostgreSQL URL: postgres://user@host:port/database or postgresql://… (libpq's PG* variables give what it leaves out).",
            valueName: "file|url"))
    var database: String?

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "The sealing key: 64 hex characters or 32 raw bytes (default: $\(SealingKey.defaultEnvironmentVariable)).", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("previous-key-file"),
        help: ArgumentHelp("An earlier sealing key whose rows still open (repeatable).", valueName: "file"))
    var previousKeyFiles: [String] = []

    @OptionGroup(title: "Abuse limits") var limitOptions: LimitOptions

    @Option(
        name: .customLong("signing-key-file"),
        help: ArgumentHelp(
            "The ID token signing key, sealed; made on first start (default: the SQLite file's path + .signing-key; required with PostgreSQL, on storage every server of the database shares).",
            valueName: "file"))
    var signingKeyFile: String?

    @Option(
        name: .customLong("signing-algorithm"),
        help: ArgumentHelp(
            "The algorithm of the ID token signing key made on first start: RS256 (the default, as Firebase signs) or ES256 (ECDSA P-256, a fraction of RS256's CPU per token). An existing signing key file is never changed by it: `otpkit-server rotate-signing-key --algorithm` changes it. firebase-admin's verify_id_token accepts ES256 tokens only under FIREBASE_AUTH_EMULATOR_HOST, where it checks no signature; outside it refuses any algorithm but RS256.",
            valueName: "RS256|ES256"))
    var signingAlgorithm: String?

    @Option(name: .customLong("project-id"), help: ArgumentHelp("The Firebase project id tokens are issued for.", valueName: "id"))
    var projectID: String?

    @Option(
        name: .customLong("api-key"),
        help: ArgumentHelp("An API key client calls may carry (repeatable); any key is accepted under --emulator.", valueName: "key"))
    var apiKeys: [String] = []

    @Option(help: "The address to listen on (default: 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on; 0 picks a free one (default: 9099).")
    var port: Int?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Behave as Firebase's Auth emulator where tests need it: any API key, admin calls with `Authorization: Bearer owner`, SMS codes listed at GET /emulator/v1/projects/{id}/verificationCodes and never sent (default: off)."
    )
    var emulator: Bool?

    @Flag(
        name: .customLong("emulator-allow-remote"),
        help:
            "Let --emulator listen on an address other than loopback and answer requests addressed to any host name; without it the emulator listens on loopback only and answers 403 to a Host header other than localhost, 127.0.0.1 or [::1] (a web page's DNS rebinding)."
    )
    var emulatorAllowsRemote = false

    @Option(
        name: .customLong("purge-interval"),
        help: ArgumentHelp(
            "Seconds between purges of what has run out in the store: expired sessions, pending enrollments and phone verifications, spent sign-ins, drained quotas, ended locks, failures a day old and sign-in addresses 30 days old (default \(ServerSettings.defaultPurgeInterval); 0 for none, when another server of the database purges).",
            valueName: "seconds"))
    var purgeInterval: Int?

    @Option(
        name: .customLong("audit-retention-days"),
        help: ArgumentHelp(
            "Days the audit log keeps a security event (sign-ins and their failures, factors, passwords, providers, administrators' changes) before a purge drops it (default \(ServerSettings.defaultAuditRetentionDays)).",
            valueName: "days"))
    var auditRetentionDays: Int?

    @Option(
        name: .customLong("console-admin"),
        help: ArgumentHelp(
            "The email address of an account that may use the admin console at /admin (repeatable), once signed in there with its password and a second factor. Without one, the console refuses everyone.",
            valueName: "email"))
    var consoleAdministrators: [String] = []

    @Option(
        name: .customLong("account-page-provider"),
        help: ArgumentHelp(
            "An identity provider the account page's sign-in offers (repeatable), by the authorization code flow with PKCE: google.com=CLIENT_SECRET_FILE with Google's endpoints, or ID=AUTHORIZATION_URL,TOKEN_URL[,CLIENT_SECRET_FILE] (no file for a public client). Needs --identity-provider for the same id, whose client id the page signs in as; register https://HOST/account/providers/ID/callback as the redirect URI.",
            valueName: "provider"))
    var accountPageProviders: [String] = []

    @Flag(
        name: .customLong("no-audit-log"),
        help:
            "Record no security events: the audit log, its endpoints and exports stay empty. Events recorded before are kept until their retention ends."
    )
    var noAuditLog = false

    @Option(
        name: .customLong("admin-token-file"),
        help: ArgumentHelp(
            "A file holding the bearer token admin calls (/v1/projects/{id}/accounts…, firebase-admin's user management) must carry as Authorization: Bearer TOKEN: one word of at least \(TokenFile.minimumLength) visible ASCII characters, such as `openssl rand -hex 32` prints; a file, so the token never shows in the process list. Without it admin calls are refused, except Bearer owner under --emulator.",
            valueName: "file"))
    var adminTokenFile: String?

    @Option(
        name: .customLong("metrics-token-file"),
        help: ArgumentHelp(
            "A file holding the bearer token GET /metrics must carry as Authorization: Bearer TOKEN (Prometheus's `authorization` setting), as --admin-token-file's. Without it /metrics answers anyone who reaches the server.",
            valueName: "file"))
    var metricsTokenFile: String?

    @Option(
        name: .customLong("sms-command"),
        help: ArgumentHelp(
            "Send the codes of phone factors by running PROGRAM (an absolute path) with the --sms-arg arguments and the message on its standard input. It gets an environment of its own: PATH, LANG and the --sms-env variables, never the server's secrets.",
            valueName: "program"))
    var smsCommand: String?

    @Option(
        name: .customLong("sms-arg"),
        // The next word whatever it looks like: programs take options such as sendmail's -i.
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An argument of the --sms-command program (repeatable): {to} is the number (E.164), {text} the message, anything else is passed as written (default: {to}). With {text} the message, code included, is an argument, which every local user can read in /proc: give it only for a program that cannot read standard input.",
            valueName: "arg"))
    var smsArguments: [String] = []

    @Option(
        name: .customLong("sms-env"),
        help: ArgumentHelp(
            "A variable of the server's environment that the --sms-command program gets too (repeatable), such as a gateway's credentials.",
            valueName: "name"))
    var smsEnvironment: [String] = []

    @Option(
        name: .customLong("sms-webhook"),
        help: ArgumentHelp(#"Send the codes of phone factors by POSTing {"to":NUMBER,"text":MESSAGE} as JSON to URL."#, valueName: "url"))
    var smsWebhook: String?

    @Option(
        name: .customLong("smtp-url"),
        help: ArgumentHelp(
            "Send the emails of password resets, address verifications and sign-in links through the SMTP server at URL: smtp://HOST:587 (STARTTLS, which is required) or smtps://HOST:465. Give --mail-from too, and --smtp-user with --smtp-password-file when the server asks for a login.",
            valueName: "url"))
    var smtpURL: String?

    @Option(name: .customLong("smtp-user"), help: ArgumentHelp("The account --smtp-url's server is logged in to.", valueName: "name"))
    var smtpUser: String?

    @Option(
        name: .customLong("smtp-password-file"),
        help: ArgumentHelp(
            "A file holding the password of --smtp-user on one line (a file, so that it never shows in the process list).", valueName: "file"))
    var smtpPasswordFile: String?

    @Option(
        name: .customLong("smtp-ca-file"),
        help: ArgumentHelp("A PEM file of the certificates --smtp-url's server is verified with, instead of the system's.", valueName: "file"))
    var smtpCAFile: String?

    @Option(
        name: .customLong("mail-from"), help: ArgumentHelp("The address emails are sent from, such as no-reply@example.com.", valueName: "address"))
    var mailFrom: String?

    @Flag(
        name: .customLong("mail-log"),
        help: ArgumentHelp(
            "Write each email's link to the log instead of sending it: for a developer's own machine only, as anyone who reads the log can then reset passwords."
        ))
    var mailLog = false

    @Option(
        name: .customLong("mail-command"),
        help: ArgumentHelp(
            "Send the emails by running PROGRAM (an absolute path) with the --mail-arg arguments and the message (RFC 5322, LF line ends) on its standard input: the sendmail interface, as in --mail-command /usr/sbin/sendmail --mail-arg -i --mail-arg {to}. Give --mail-from too. It gets an environment of its own: PATH, LANG and the --mail-env variables, never the server's secrets.",
            valueName: "program"))
    var mailCommand: String?

    @Option(
        name: .customLong("mail-arg"),
        // The next word whatever it looks like: programs take options such as sendmail's -i.
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An argument of the --mail-command program (repeatable): {to} is the recipient's address, anything else is passed as written (default: {to}).",
            valueName: "arg"))
    var mailArguments: [String] = []

    @Option(
        name: .customLong("mail-env"),
        help: ArgumentHelp("A variable of the server's environment that the --mail-command program gets too (repeatable).", valueName: "name"))
    var mailEnvironment: [String] = []

    @Option(
        name: .customLong("mail-webhook"),
        help: ArgumentHelp(
            #"Send the emails by POSTing {"to","from","subject","text","link","kind"} as JSON to URL (https, or http to loopback); "from" is --mail-from when given."#,
            valueName: "url"))
    var mailWebhook: String?

    @Option(
        name: .customLong("email-action-url"),
        help: ArgumentHelp(
            "The page the emails' links open, which reads their mode and oobCode (default: Firebase's handler, https://PROJECT.firebaseapp.com/__/auth/action; under --emulator, this server's /emulator/action).",
            valueName: "url"))
    var emailActionURL: String?

    @Option(
        name: .customLong("app-name"), help: ArgumentHelp("The name emails give the app and sign with (default: the project id).", valueName: "name"))
    var appName: String?

    @Option(
        name: .customLong("mail-template"),
        help: ArgumentHelp(
            "The message of one kind of email (repeatable): PASSWORD_RESET, VERIFY_EMAIL, EMAIL_SIGNIN, VERIFY_AND_CHANGE_EMAIL or RECOVER_EMAIL, then =FILE, a first line Subject: …, an empty line and the plain-text body, which must hold {link}; {app}, {email} and {newEmail} are filled in too.",
            valueName: MailTemplateOption.valueHelp))
    var mailTemplates: [String] = []

    @Option(
        name: .customLong("identity-provider"),
        help: ArgumentHelp(
            "A federated provider whose ID tokens accounts:signInWithIdp accepts, verified against its published keys (repeatable): google.com=CLIENT_ID with Google's issuers and keys, or ID=CLIENT_ID,ISSUER_URL,JWKS_URL_OR_FILE for any OpenID Connect provider. Under --emulator google.com and apple.com also take the emulator's unsigned credentials (JSON claims, or a JWT with alg none), never otherwise.",
            valueName: "provider"))
    var identityProviders: [String] = []

    @Option(
        name: .customLong("custom-token-signer"),
        help: ArgumentHelp(
            "A service account whose custom tokens (firebase-admin's create_custom_token) accounts:signInWithCustomToken accepts (repeatable): its address and the file of its public certificates as Google publishes them at https://www.googleapis.com/robot/v1/metadata/x509/EMAIL. Under --emulator unsigned custom tokens are accepted too, never otherwise.",
            valueName: CustomTokenSignerOption.valueHelp))
    var customTokenSigners: [String] = []

    @Option(
        name: .customLong("firebase-hash-config"),
        help: ArgumentHelp(
            "A Firebase project's password hash parameters, as its console shows them under Users, Password hash parameters (repeatable): users imported from it with its SCRYPT hashes (accounts:batchCreate) sign in with them, and are re-hashed in OTPKit's form as they do. The file holds the project's signer key: keep it as private as the sealing key.",
            valueName: "file"))
    var firebaseHashConfigs: [String] = []

    @Option(
        name: .customLong("hmac-import-key"),
        help: ArgumentHelp(
            "The key of HMAC password hashes users are imported with (repeatable): HMAC_MD5, HMAC_SHA1, HMAC_SHA256 or HMAC_SHA512, then =FILE, the file holding the key in base64 as firebase-tools' --hash-key takes it. Those users sign in with it and are re-hashed in OTPKit's form as they do. Keep the file as private as the sealing key.",
            valueName: HMACImportKeyOption.valueHelp))
    var hmacImportKeys: [String] = []

    @Option(
        name: .customLong("test-phone-number"),
        help: ArgumentHelp(
            "A fictional number for phone second factors whose code is fixed (repeatable): no text message is sent to it, and it works with or without an SMS sender. A code still works once per verification and wrong codes count. Never give a real number.",
            valueName: "+15555550100=123456"))
    var testPhoneNumbers: [String] = []

    @Option(
        name: .customLong("passkey-rp-id"),
        help: ArgumentHelp(
            "Offer passkeys (the passkeyEnrollment and passkeySignIn endpoints) for this relying party ID: the site's domain, such as example.com, or localhost. Passkeys work only for the RP ID they were made for. Needs --passkey-origin.",
            valueName: "domain"))
    var passkeyRelyingPartyID: String?

    @Option(
        name: .customLong("passkey-origin"),
        help: ArgumentHelp(
            "An origin passkey ceremonies run on, exactly as the browser writes it (repeatable): https://example.com, https://app.example.com, or http://localhost:5173 (http only for localhost).",
            valueName: "origin"))
    var passkeyOrigins: [String] = []

    /// What the command line gives, `nil` where it is silent.
    var commandLineLayer: ServerSettingsLayer {
        let layer = ServerSettingsLayer(
            database: database, keyFile: keyFile, previousKeyFiles: previousKeyFiles.nonEmpty, signingKeyFile: signingKeyFile,
            signingAlgorithm: signingAlgorithm, projectID: projectID, apiKeys: apiKeys.nonEmpty, host: host, port: port, emulator: emulator,
            emulatorAllowsRemote: emulatorAllowsRemote ? true : nil, adminTokenFile: adminTokenFile, metricsTokenFile: metricsTokenFile,
            smsCommand: smsCommand, smsArguments: smsArguments.nonEmpty, smsEnvironment: smsEnvironment.nonEmpty,
            smsWebhook: smsWebhook, smtpURL: smtpURL, smtpUser: smtpUser, smtpPasswordFile: smtpPasswordFile, smtpCAFile: smtpCAFile,
            mailFrom: mailFrom, mailLog: mailLog ? true : nil, mailCommand: mailCommand, mailArguments: mailArguments.nonEmpty,
            mailEnvironment: mailEnvironment.nonEmpty, mailWebhook: mailWebhook, emailActionURL: emailActionURL, appName: appName,
            mailTemplates: mailTemplates.nonEmpty,
            identityProviders: identityProviders.nonEmpty, customTokenSigners: customTokenSigners.nonEmpty,
            firebaseHashConfigs: firebaseHashConfigs.nonEmpty, hmacImportKeys: hmacImportKeys.nonEmpty, testPhoneNumbers: testPhoneNumbers.nonEmpty,
            passkeyRelyingPartyID: passkeyRelyingPartyID, passkeyOrigins: passkeyOrigins.nonEmpty)
        var options = limitOptions.applied(to: layer)
        options.purgeInterval = purgeInterval
        options.auditRetentionDays = auditRetentionDays
        options.auditLogOff = noAuditLog ? true : nil
        options.consoleAdministrators = consoleAdministrators.nonEmpty
        options.accountPageProviders = accountPageProviders.nonEmpty
        return options
    }

    /// The settings of this run: the command line over the environment over the `--config` file.
    ///
    /// - Throws: ``ServerConfigurationError`` for a file or variable that cannot be read,
    ///   `ValidationError` for a setting that is missing or cannot work, ``TokenFileError``
    ///   for an admin token file that cannot be used.
    func resolvedSettings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerSettings {
        var settings = try ServerSettings(commandLineLayer.stacked(config: config, environment: environment))
        try settings.loadTokens()
        return settings
    }

    /// Runs `rotate-signing-key` when it is the first argument, else the server.
    ///
    /// Not an ArgumentParser subcommand: a parent command's options are parsed and validated
    /// before its subcommand's, and the server's insist on a project id and API keys that a
    /// rotation has no use for.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == RotateSigningKeyCommand.name {
            RotateSigningKeyCommand.main(Array(arguments.dropFirst()))
        } else {
            await main(nil)
        }
    }

    /// The signing key file: `signingKeyFile`, else the database's default (an SQLite file's path
    /// + `.signing-key`).
    ///
    /// - Throws: ``ServerFailure`` for a database without a default (PostgreSQL, which several
    ///   servers share) and no signing key file.
    static func signingKeyPath(_ signingKeyFile: String?, database: DatabaseLocation) throws(ServerFailure) -> String {
        if let refusal = database.backend.refusal { throw ServerFailure(refusal.description) }
        if let signingKeyFile { return signingKeyFile }
        guard let path = database.defaultSigningKeyPath else {
            throw ServerFailure(
                "give --signing-key-file with a \(database.backend.name) database: every server of one database must sign with the same key")
        }
        return path
    }

    func validate() throws {
        _ = try resolvedSettings()
    }

    func run() async throws {
        // Standard output carries only the port line.
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        let metrics = Self.bootstrapMetrics()
        var logger = Logger(label: "otpkit-server")
        logger.logLevel = .info
        let settings = try resolvedSettings()
        try FileDescriptorLimit.ensureRoom(forConnections: settings.maximumConnections)
        let databaseOptions = settings.databaseOptions
        let location = databaseOptions.location
        let sealer: SecretSealer
        do {
            sealer = try databaseOptions.sealer()
        } catch {
            throw ServerFailure("\(error)")
        }
        let signingKeyPath = try Self.signingKeyPath(settings.signingKeyFile, database: location)
        let signingKeys: IDTokenSigningKeySet
        let signingKeyFile: IDTokenKeyFileMonitor
        do {
            (signingKeys, signingKeyFile) = try IDTokenKeyFileMonitor.start(
                path: signingKeyPath, sealer: sealer, logger: logger, algorithm: settings.signingAlgorithm)
        } catch {
            throw ServerFailure(error.description)
        }
        let storeDatabase: any DurableAuthStore
        do {
            storeDatabase = try await location.open(sealer: sealer, poolSize: 10, logger: logger)
        } catch {
            throw ServerFailure("\(error)")
        }
        do {
            try await serve(
                storeDatabase, settings: settings, signingKeys: signingKeys, signingKeyFile: signingKeyFile, metrics: metrics, logger: logger)
        } catch {
            await storeDatabase.closeQuietly()
            throw error
        }
        await storeDatabase.closeQuietly()
    }

    private func serve(
        _ database: any DurableAuthStore, settings: ServerSettings, signingKeys: IDTokenSigningKeySet,
        signingKeyFile: IDTokenKeyFileMonitor, metrics: PrometheusCollectorRegistry, logger: Logger
    ) async throws {
        var phone = try phoneDelivery(settings, logger: logger)
        let mail = try mailDelivery(settings, logger: logger)
        if let sendsPerUser = settings.codeSendsPerAccount { phone.settings.sendsPerUser = sendsPerUser }
        // One clock for everything that tells time: the service, the tokens, the identity
        // providers' tokens and key caches, and the purge.
        let clock = SystemAuthClock()
        let verifiers = settings.identityProviders.map {
            OpenIDTokenVerifier(settings: $0.settings, logger: logger, clock: { Double(clock.now()) })
        }
        let service = try MultiFactorService(
            configuration: MultiFactorConfiguration(
                phone: phone.settings,
                passwords: PasswordSettings(firebaseHashConfigs: settings.firebaseHashConfigs, hmacImportKeys: settings.hmacImportKeys),
                emailActions: mail.settings, passkeys: settings.passkeys, auditLog: settings.auditLog), store: database, clock: clock,
            smsSender: phone.sender, emailSender: mail.sender,
            identityProviders: settings.emulator ? EmulatorIdentityTokenVerifier.inFront(of: verifiers) : verifiers, logger: logger)
        let tokens = await IDTokenIssuer(
            projectID: settings.projectID, signingKeys: signingKeys, clock: { clock.now() }, refresh: { signingKeyFile.changedKeys() })
        // A rotation by any server or operator sharing the file reaches this one within the interval.
        let keyFileChecks = Task {
            while (try? await Task.sleep(for: .seconds(IDTokenKeyFileMonitor.checkInterval))) != nil {
                await tokens.refreshKeys()
            }
        }
        defer { keyFileChecks.cancel() }
        let housekeeping = Housekeeping(service: service, logger: logger)
        let purges = Task { [purgeInterval = settings.purgeInterval] in
            guard purgeInterval > 0 else { return }
            await housekeeping.run(every: .seconds(purgeInterval))
        }
        defer { purges.cancel() }
        var customTokens: CustomTokenVerifier?
        if settings.emulator || !settings.customTokenSigners.isEmpty {
            do {
                customTokens = try await CustomTokenVerifier(
                    signers: settings.customTokenSigners, acceptsUnsigned: settings.emulator, clock: { clock.now() })
            } catch {
                throw ServerFailure("--custom-token-signer: \(error)")
            }
        }
        let routes = IdentityToolkitRoutes(
            service: service, tokens: tokens, refreshTokenKeys: database.codeDigestKeys ?? database.sealer,
            configuration: IdentityToolkitConfiguration(
                projectID: settings.projectID, apiKeys: Set(settings.apiKeys), isEmulator: settings.emulator, adminToken: settings.adminToken,
                limits: settings.limits, trustedProxies: Set(settings.trustedProxies)),
            verificationCodes: phone.outbox, mailOutbox: mail.outbox, customTokens: customTokens, logger: logger)
        let requestTimeout = settings.requestTimeout
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: NotFoundMiddleware())
        if settings.emulator {
            logger.warning(
                "running as Firebase's Auth emulator: any API key is accepted, Bearer owner is an administrator and SMS codes and email links are listed, not sent; never serve real users this way"
            )
            if !settings.emulatorAllowsRemote { router.add(middleware: LoopbackHostMiddleware()) }
        }
        Self.addMetrics(metrics, token: settings.metricsToken, to: router)
        routes.addRoutes(to: router)
        let pages = WebPagesConfiguration(
            administrators: Set(settings.consoleAdministrators), offersPasskeys: settings.passkeys.relyingPartyID != nil,
            signInProviders: settings.accountPageProviders)
        do {
            try WebPages(routes: routes, keys: database.codeDigestKeys ?? database.sealer, configuration: pages).addRoutes(to: router)
        } catch {
            throw ServerFailure("the account page's templates do not load (a defect of this build): \(error)")
        }
        let app = Application(
            router: router,
            // A client that stops sending, its body half sent, is cut off after the idle timeout,
            // and one that trickles its request after the request timeout, rather than holding a
            // connection and a task for as long as it likes.
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [RequestDeadlineHandler(timeout: .seconds(Int64(requestTimeout)))],
                    idleTimeout: .seconds(Int64(settings.idleTimeout)))),
            configuration: ApplicationConfiguration(
                address: .hostname(settings.host, port: settings.port), serverName: "otpkit-server",
                availableConnectionsDelegate: .maximum(settings.maximumConnections, logger: logger)),
            onServerRunning: { channel in
                // Scripts and tests read the port from this line, so it is the only thing on it.
                let line = Array("\(channel.localAddress?.port ?? 0)\n".utf8)
                try? line.withUnsafeBytes { try POSIXFile.standardOutput.writeAll($0) }
            },
            logger: logger)
        try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}

extension Array {
    /// `nil` for an empty array: a repeatable option not given on the command line leaves the
    /// lower sources' list in place.
    fileprivate var nonEmpty: Self? { isEmpty ? nil : self }
}

/// A start-up failure, printed as one line with what to do.
struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "otpkit-server: " + description }
}
