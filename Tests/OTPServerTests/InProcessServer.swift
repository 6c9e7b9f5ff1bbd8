import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import MetricsTestKit
import NIOCore
import OTPAuthentication
import OTPCore
import OTPFederation
import OTPLoopbackHTTP
import OTPSealing
import OTPServer
import Testing

/// `IdentityToolkitRoutes` on an in-memory store, driven in process through Hummingbird's router
/// test framework: every request goes through the router, the body limit and the error mapping as
/// on the network, and one manual clock moves the service and the tokens together.
struct InProcessServer: Sendable {
    static let projectID = "demo-otpkit"
    /// Cheap password hashes: the tests are about the rules, not the hash's cost.
    static let configuration = MultiFactorConfiguration(
        passwords: PasswordSettings(hashParameters: try! PasswordHashParameters(logN: 10, r: 8, p: 1)))

    let clock: ManualAuthClock
    let service: MultiFactorService
    let client: any TestClientProtocol
    /// What the routes counted (`otpkit_verifications_total`, `otpkit_throttled_requests_total`).
    let metrics: TestMetrics
    /// The loopback port of a ``live`` server, which clients nobody here wrote reach; 0 for routes
    /// driven through the router alone.
    let port: Int
    var projectID: String { Self.projectID }

    /// Runs `body` against routes under `--emulator` (any API key, `Bearer owner` for admin calls),
    /// or, with `apiKeys`, as a production server taking those keys. Requests come from the
    /// loopback address, as a process test's do; `trustedProxies` are the proxies whose
    /// `X-Forwarded-For` counts (`--trust-forwarded-for`). Custom tokens of
    /// `customTokenSigners` are accepted (and under the emulator unsigned ones); with `nil`, none.
    /// ID tokens are signed ES256 (cheaper to make) unless `signingAlgorithm` says otherwise.
    ///
    /// `identityProviders` verify `accounts:signInWithIdp`'s tokens, under the emulator behind its
    /// unsigned form as `otpkit-server` puts them; `store`, when given, keeps the accounts (and its
    /// code digest keys authenticate refresh tokens, as `otpkit-server`'s do); `clock`, when given,
    /// is the one clock.
    ///
    /// `live` serves the routes on a loopback port, in process, for clients that need one (Python's
    /// firebase-admin, PyJWT), with the clock starting at the real time, which they check tokens
    /// against; otherwise requests go through the router alone and the clock starts at a fixed time.
    static func with(
        configuration: MultiFactorConfiguration = Self.configuration, limits: RequestLimits = .none, apiKeys: Set<String>? = nil,
        trustedProxies: Set<String> = [], customTokenSigners: [CustomTokenSigner]? = [], signingAlgorithm: IDTokenSigningAlgorithm = .es256,
        identityProviders: [any IdentityTokenVerifier] = [], store: (any AuthStore)? = nil, clock: ManualAuthClock? = nil, live: Bool = false,
        pages: WebPagesConfiguration = WebPagesConfiguration(), _ body: @Sendable (InProcessServer) async throws -> Void
    ) async throws {
        let clock = clock ?? ManualAuthClock(live ? TOTP.currentUnixTime() : 1_800_000_000)
        let metrics = TestMetrics()
        // Under the emulator, text messages and emails go to the outboxes the emulator lists, as
        // `otpkit-server` sends them; a production server's routes get the configuration's phone
        // settings alone, and no mail sender.
        let outbox = apiKeys == nil ? EmulatorSMSOutbox() : nil
        let mail = apiKeys == nil ? EmulatorMailOutbox() : nil
        var configuration = configuration
        if outbox != nil, !configuration.phone.isEnabled {
            configuration.phone = PhoneSettings(isEnabled: true, messageTemplate: "{code}")
        }
        let service = try MultiFactorService(
            configuration: configuration, store: store ?? InMemoryAuthStore(), clock: clock, smsSender: outbox, emailSender: mail,
            identityProviders: apiKeys == nil ? EmulatorIdentityTokenVerifier.inFront(of: identityProviders) : identityProviders)
        let tokens = await IDTokenIssuer(
            projectID: projectID, signingKeys: IDTokenSigningKeySet(try IDTokenSigningKey.generate(algorithm: signingAlgorithm)),
            clock: { clock.now() })
        var customTokens: CustomTokenVerifier?
        if let customTokenSigners {
            customTokens = try await CustomTokenVerifier(signers: customTokenSigners, acceptsUnsigned: apiKeys == nil, clock: { clock.now() })
        }
        let keys = try store?.codeDigestKeys ?? SecretSealer(current: SealingKey.random())
        let routes = IdentityToolkitRoutes(
            service: service, tokens: tokens, refreshTokenKeys: keys,
            configuration: IdentityToolkitConfiguration(
                projectID: projectID, apiKeys: apiKeys ?? [], isEmulator: apiKeys == nil, limits: limits, trustedProxies: trustedProxies),
            verificationCodes: outbox, mailOutbox: mail, customTokens: customTokens, logger: Logger(label: "test"), metricsFactory: metrics)
        let router = Router(context: InProcessRequestContext.self)
        router.add(middleware: NotFoundMiddleware())
        routes.addRoutes(to: router)
        try WebPages(routes: routes, keys: keys, configuration: pages).addRoutes(to: router)
        // HummingbirdTesting's live server listens on "localhost", port 0.
        try await Application(router: router).test(live ? .live : .router) { client in
            try await body(InProcessServer(clock: clock, service: service, client: client, metrics: metrics, port: client.port ?? 0))
        }
    }

    /// Runs `body` against routes that trust the test identity provider as `google.com`, checked
    /// against its published keys (`--identity-provider google.com=CLIENT_ID,ISSUER,JWKS`), under
    /// the emulator or, when `emulator` is false, with the API key `demo-key` only. The clock starts
    /// at the real time, which the provider's tokens are dated by. The account page offers the
    /// provider as "Google", its code exchanged with `clientSecret` (the provider requires
    /// `providerSecret`, which a test may set apart to see the exchange refused).
    static func withIdentityProvider(
        emulator: Bool = true, clientSecret: String = "page-secret", providerSecret: String = "page-secret",
        _ body: @Sendable (InProcessServer, TestIdentityProvider) async throws -> Void
    ) async throws {
        let clock = ManualAuthClock(TOTP.currentUnixTime())
        let provider = try await TestIdentityProvider.start(clock: { Double(clock.now()) })
        provider.setClientSecret(providerSecret)
        let settings = try OpenIDProviderSettings(
            providerID: GoogleAuthProvider.id, issuers: [provider.issuer], audiences: [provider.audience], keySource: .url(provider.jwksURL))
        let verifier = OpenIDTokenVerifier(settings: settings, logger: Logger(label: "test"), clock: { Double(clock.now()) })
        let signIn = OpenIDAuthorizationClient(
            settings: try OpenIDAuthorizationSettings(
                providerID: GoogleAuthProvider.id, displayName: "Google", clientID: provider.audience, clientSecret: clientSecret,
                authorizationEndpoint: provider.authorizationEndpoint, tokenEndpoint: provider.tokenEndpoint))
        do {
            try await with(
                apiKeys: emulator ? nil : ["demo-key"], identityProviders: [verifier], clock: clock,
                pages: WebPagesConfiguration(signInProviders: [signIn])
            ) { server in
                try await body(server, provider)
            }
        } catch {
            try? await provider.stop()
            throw error
        }
        try await provider.stop()
    }

    /// Sends `body` to `path` as the SDKs do: POST with a JSON body, as ``ServerProcess/post(_:_:headers:method:contentType:)``.
    func post(
        _ path: String, _ body: String, headers: [(String, String)] = [], method: HTTPRequest.Method = .post,
        contentType: String = "application/json"
    ) async throws -> ServerProcess.Answer {
        var fields: HTTPFields = [.contentType: contentType]
        for (name, value) in headers {
            fields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value))
        }
        let response = try await client.execute(
            uri: path, method: method, headers: fields, body: method == .post ? ByteBuffer(string: body) : nil)
        return ServerProcess.Answer(status: Int(response.status.code), body: String(buffer: response.body), location: response.headers[.location])
    }

    /// An `otpkit_verifications_total` count, as ``ServerProcess/verifications(_:_:)`` scrapes it.
    func verifications(_ kind: String, _ outcome: String) throws -> Double {
        Double(try metrics.expectCounter("otpkit_verifications_total", [("kind", kind), ("outcome", outcome)]).totalValue)
    }

    /// An `otpkit_throttled_requests_total` count, as ``ServerProcess/throttled(_:_:)`` scrapes it.
    func throttled(_ operation: String, _ scope: String) throws -> Double {
        Double(try metrics.expectCounter("otpkit_throttled_requests_total", [("operation", operation), ("scope", scope)]).totalValue)
    }

    /// The code of `key` at the clock's time.
    func code(_ key: String) throws -> String {
        try TOTPCodes.code(key, step: currentStep)
    }

    /// Moves the clock to the start of the next time step, so that a new code exists.
    func nextStep() {
        clock.advance(by: 30 - clock.now() % 30)
    }

    /// An account with a verified address and a password, made through the service as an
    /// administrator would (a production server takes no `Bearer owner`).
    func verifiedAccount(_ email: String, password: String = "long enough") async throws {
        _ = try await service.administration.createAccount(
            id: nil, email: email, password: password, displayName: nil, photoURL: nil, isEmailVerified: true, isDisabled: false)
    }

    /// A password sign-in finished with the TOTP factor: the ID token and refresh token.
    func signInWithTOTP(_ email: String, password: String = "long enough", key: String, enrollmentID: String) async throws
        -> (idToken: String, refreshToken: String)
    {
        let first = try await post(ServerProcess.signInPath, #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#)
        let credential = try #require(first.json["mfaPendingCredential"] as? String, "\(first.body)")
        let finalized = try await post(
            ServerProcess.v2("mfaSignIn:finalize"),
            #"{"mfaPendingCredential":"\#(credential)","mfaEnrollmentId":"\#(enrollmentID)","totpVerificationInfo":{"verificationCode":"\#(try code(key))"}}"#
        )
        return (
            try #require(finalized.json["idToken"] as? String, "\(finalized.body)"),
            try #require(finalized.json["refreshToken"] as? String, "\(finalized.body)")
        )
    }
}

extension InProcessServer: IdentityToolkitTestClient {
    var currentStep: Int64 { clock.now() / 30 }

    func send(_ path: String, _ body: String, bearer: String?) async throws -> ServerProcess.Answer {
        try await post(path, body, headers: bearer.map { [("Authorization", "Bearer " + $0)] } ?? [])
    }

    func get(_ path: String) async throws -> ServerProcess.Answer {
        try await post(path, "", method: .get)
    }

    func sendForm(_ path: String, _ body: String) async throws -> ServerProcess.Answer {
        try await post(path, body, contentType: "application/x-www-form-urlencoded")
    }
}

/// Hummingbird's basic context with the client's address, as `otpkit-server`'s own context: the
/// connection's peer when served live, and the loopback address for requests through the router
/// alone, which have no connection.
struct InProcessRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress ?? (try? SocketAddress(ipAddress: "127.0.0.1", port: 0))
    }
}
