public import CoreMetrics
public import Hummingbird
internal import Foundation
internal import NIOCore
internal import OTPCore
public import Logging
public import OTPAuthentication
public import OTPSealing

/// Google's Identity Toolkit REST API on a `MultiFactorService`, as Hummingbird routes: mount
/// them on any router with ``addRoutes(to:)``.
///
/// Every endpoint answers at the paths the SDKs build when pointed at an emulator host: the v1
/// form (`/identitytoolkit.googleapis.com/v1/accounts:signUp`) and iOS's legacy v3 names
/// (`/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser`). Client calls need an API
/// key; admin calls (`/identitytoolkit.googleapis.com/v1/projects/{project}/accounts…`) need the
/// administrator's bearer token, ``IdentityToolkitConfiguration/adminToken``, or under
/// ``IdentityToolkitConfiguration/isEmulator`` the emulator's `Bearer owner`. Bad input of any kind
/// is a 400 in Identity Toolkit's error shape and changes nothing.
public struct IdentityToolkitRoutes: Sendable {
    let service: MultiFactorService
    let tokens: IDTokenIssuer
    let configuration: IdentityToolkitConfiguration
    let refreshTokens: SignedTokenCodec
    let verificationCodes: EmulatorSMSOutbox?
    let mailOutbox: EmulatorMailOutbox?
    let customTokens: CustomTokenVerifier?
    let logger: Logger
    let metrics: IdentityToolkitMetrics
    let throttle: RequestThrottle

    static let identityToolkit = "/identitytoolkit.googleapis.com/v1"
    static let relyingParty = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    static let adminAccounts = identityToolkit + "/projects/{project}/accounts"
    static let secureToken = "/securetoken.googleapis.com/v1/token"
    /// Where Google publishes the keys of Firebase's ID tokens, under the emulator path scheme.
    static let googleKeySet = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"

    /// Routes serving `service`'s accounts, with ID tokens from `tokens`.
    ///
    /// - Parameters:
    ///   - service: The accounts and sessions behind every endpoint.
    ///   - tokens: Signs and checks ID tokens.
    ///   - refreshTokenKeys: The keys refresh tokens are authenticated under: the store's
    ///     `codeDigestKeys` for a durable store, so tokens outlive the process and every server of
    ///     the store accepts them.
    ///     Multi-factor pending credentials are authenticated under the same keys, in a context of
    ///     their own.
    ///   - configuration: The project, API keys, emulator mode and body size limit.
    ///   - verificationCodes: Under the emulator, the service's SMS sender, whose codes
    ///     `GET /emulator/v1/projects/{project}/verificationCodes` lists; `nil` otherwise, and that
    ///     path then does not exist.
    ///   - mailOutbox: Under the emulator, the service's email sender, whose links
    ///     `GET /emulator/v1/projects/{project}/oobCodes` lists; `nil` otherwise, and that path then
    ///     does not exist.
    ///   - customTokens: What checks the custom tokens of `accounts:signInWithCustomToken`; `nil`
    ///     for none, which that endpoint then refuses.
    ///   - logger: Receives server failures; never a token, password, code or request body.
    ///   - metricsFactory: Where the codes accepted and refused and the requests refused by
    ///     ``IdentityToolkitConfiguration/limits`` are counted; `nil` for swift-metrics' global
    ///     factory as it is when the routes are made (bootstrap it first).
    public init(
        service: MultiFactorService, tokens: IDTokenIssuer, refreshTokenKeys: SecretSealer, configuration: IdentityToolkitConfiguration,
        verificationCodes: EmulatorSMSOutbox? = nil, mailOutbox: EmulatorMailOutbox? = nil, customTokens: CustomTokenVerifier? = nil,
        logger: Logger,
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.service = service
        self.customTokens = customTokens
        self.tokens = tokens
        self.refreshTokens = SignedTokenCodec(keys: refreshTokenKeys, prefix: "otpk1", context: "otpkit-server refresh token:")
        self.configuration = configuration
        self.verificationCodes = verificationCodes
        self.mailOutbox = mailOutbox
        self.logger = logger
        let metrics = IdentityToolkitMetrics(factory: metricsFactory ?? MetricsSystem.factory)
        self.metrics = metrics
        self.throttle = RequestThrottle(service: service, limits: configuration.limits, metrics: metrics)
    }

    /// Adds every route to `router`: `GET /` (ready), the key set at `/.well-known/jwks.json` and at
    /// Google's path, the client endpoints (with the project and reCAPTCHA probes) and the admin endpoints.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        router.add(middleware: AuditContextMiddleware(routes: routes))
        router.get("/") { _, _ in
            routes.json(Wire.Ready(projectId: routes.configuration.projectID, emulator: routes.configuration.isEmulator))
        }
        for path in ["/.well-known/jwks.json", Self.googleKeySet] {
            router.get(RouterPath(path)) { _, _ in routes.keySet() }
        }
        client(router, v1: "accounts:signUp", v3: "signupNewUser") { body, source throws(IdentityToolkitError) in
            try await routes.signUp(body, source: source)
        }
        client(router, v1: "accounts:signInWithPassword", v3: "verifyPassword") { body, source throws(IdentityToolkitError) in
            try await routes.signInWithPassword(body, source: source)
        }
        client(router, v1: "accounts:lookup", v3: "getAccountInfo") { body, _ throws(IdentityToolkitError) in try await routes.lookup(body) }
        client(router, v1: "accounts:signInWithIdp", v3: "verifyAssertion") { body, _ throws(IdentityToolkitError) in
            try await routes.signInWithIdp(body)
        }
        client(router, v1: "accounts:update", v3: "setAccountInfo") { body, source throws(IdentityToolkitError) in
            try await routes.update(body, source: source)
        }
        client(router, v1: "accounts:sendOobCode", v3: "getOobConfirmationCode") { body, source throws(IdentityToolkitError) in
            try await routes.sendOobCode(body, source: source, asAdministrator: false)
        }
        client(router, v1: "accounts:resetPassword", v3: "resetPassword") { body, _ throws(IdentityToolkitError) in
            try await routes.resetPassword(body)
        }
        client(router, v1: "accounts:signInWithEmailLink", v3: "emailLinkSignin") { body, _ throws(IdentityToolkitError) in
            try await routes.signInWithEmailLink(body)
        }
        client(router, v1: "accounts:delete", v3: "deleteAccount") { body, _ throws(IdentityToolkitError) in
            try await routes.deleteOwnAccount(body)
        }
        router.post(RouterPath(Self.secureToken)) { request, _ in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAPIKey(request)
                let isForm = request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
                return try await routes.refresh(try await routes.readBody(request), isForm: isForm)
            }
        }
        addPhoneRoutes(to: router)
        addSessionCookieRoutes(to: router)
        addQueryRoutes(to: router)
        addLegacyAdminRoutes(to: router)
        addEmulatorRoutes(to: router)
        addEmulatorActionRoute(to: router)
        client(router, v1: "accounts:signInWithCustomToken", v3: "verifyCustomToken") { body, source throws(IdentityToolkitError) in
            try await routes.signInWithCustomToken(body, source: source)
        }
        addCreateAuthURIRoute(to: router)
        addMultiFactorRoutes(to: router)
        addPasskeyRoutes(to: router)
        addAuditRoutes(to: router)
        addProjectRoutes(to: router)
        admin(router, "") { body throws(IdentityToolkitError) in try await routes.adminCreate(body) }
        admin(router, ":lookup") { body throws(IdentityToolkitError) in try await routes.adminLookup(body) }
        admin(router, ":delete") { body throws(IdentityToolkitError) in try await routes.adminDelete(body) }
        admin(router, ":update") { body throws(IdentityToolkitError) in try await routes.adminUpdate(body) }
        admin(router, ":batchDelete") { body throws(IdentityToolkitError) in try await routes.adminBatchDelete(body) }
        admin(router, ":batchCreate") { body throws(IdentityToolkitError) in try await routes.adminBatchCreate(body) }
        admin(router, ":query") { body throws(IdentityToolkitError) in try await routes.adminQuery(body) }
        admin(router, ":sendOobCode") { body throws(IdentityToolkitError) in
            try await routes.sendOobCode(body, source: nil, asAdministrator: true)
        }
        router.get(RouterPath(Self.adminAccounts + ":batchGet")) { request, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdminRequest(request, context: context)
                let query = request.uri.queryParameters
                return try await routes.adminBatchGet(
                    maxResults: query["maxResults"].map(String.init), nextPageToken: query["nextPageToken"].map(String.init))
            }
        }
    }

    // MARK: Dispatch

    typealias ClientHandler = @Sendable (JSONBody, _ source: String?) async throws(IdentityToolkitError) -> any Encodable
    typealias AdminHandler = @Sendable (JSONBody) async throws(IdentityToolkitError) -> any Encodable

    /// A client endpoint at its v1 name and its iOS v3 name.
    private func client<Context: RequestContext>(_ router: Router<Context>, v1: String, v3: String, _ handler: @escaping ClientHandler) {
        client(router, paths: [Self.identityToolkit + "/" + v1, Self.relyingParty + "/" + v3], handler)
    }

    /// A client endpoint at each of `paths`: the API key checked, the body read within the limit.
    func client<Context: RequestContext>(_ router: Router<Context>, paths: [String], _ handler: @escaping ClientHandler) {
        let routes = self
        for path in paths {
            router.post(RouterPath(path)) { request, _ in
                await routes.respond {
                    () async throws(IdentityToolkitError) -> any Encodable in
                    try routes.checkAPIKey(request)
                    let body = try await routes.readBody(request)
                    // Worked out once per request, by the middleware that records it for the audit log.
                    let source = AuditContext.active.clientAddress
                    let listsPasskeys = request.headers.contains { field in
                        field.name.canonicalName == WireMultiFactorInfo.kindsHeader
                            && field.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == FactorKind.webauthn.factorID }
                    }
                    guard listsPasskeys else { return try await handler(body, source) }
                    return try await WireMultiFactorInfo.$listsPasskeyFactors.withValue(
                        true, typed: { () async throws(IdentityToolkitError) in try await handler(body, source) })
                }
            }
        }
    }

    /// What the per-address limits count a client request under: the connection's peer, or when
    /// the peer is one of ``IdentityToolkitConfiguration/trustedProxies``, the last
    /// `X-Forwarded-For` entry that is not a trusted proxy (the address the outermost proxy
    /// received the request from; the entries before it are the client's to write). The peer
    /// when that entry is not an address.
    func clientAddress(_ request: Request, peer: SocketAddress?) -> String? {
        let trusted = configuration.trustedProxies
        if !trusted.isEmpty, let peer, let address = ClientAddress.canonical(peer), trusted.contains(address) {
            let entries = request.headers.filter { $0.name.canonicalName == "x-forwarded-for" }.flatMap { $0.value.split(separator: ",") }
            if let client = entries.reversed().first(where: { ClientAddress.canonical(parsing: $0).map { !trusted.contains($0) } ?? true }),
                let key = ClientAddress.key(parsing: client)
            {
                return key
            }
        }
        return peer.flatMap(ClientAddress.key)
    }

    /// An admin endpoint under `/v1/projects/{project}/accounts`, `suffix` after `accounts`.
    private func admin<Context: RequestContext>(_ router: Router<Context>, _ suffix: String, _ handler: @escaping AdminHandler) {
        let routes = self
        router.post(RouterPath(Self.adminAccounts + suffix)) { request, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdminRequest(request, context: context)
                return try await handler(try await routes.readBody(request))
            }
        }
    }

    /// The administrator's credential and the project of the path.
    func checkAdminRequest<Context: RequestContext>(_ request: Request, context: Context) throws(IdentityToolkitError) {
        try checkAdmin(request)
        try checkProject(context)
    }

    /// The `{project}` of the path: this server's, or `PROJECT_NOT_FOUND`.
    func checkProject<Context: RequestContext>(_ context: Context) throws(IdentityToolkitError) {
        guard context.parameters.get("project") == configuration.projectID else {
            throw IdentityToolkitError(status: .notFound, "PROJECT_NOT_FOUND", "this server serves project \(configuration.projectID) only")
        }
    }

    func respond(_ body: () async throws(IdentityToolkitError) -> any Encodable) async -> Response {
        do {
            return json(try await body())
        } catch {
            return errorResponse(error)
        }
    }

    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        do {
            let data = try JSONEncoder().encode(value)
            return Response(
                status: status, headers: [.contentType: "application/json; charset=UTF-8"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
        } catch {
            logger.error("could not encode an answer", metadata: ["error": "\(error)"])
            return Response(status: .internalServerError)
        }
    }

    private func errorResponse(_ error: IdentityToolkitError) -> Response {
        if error.status.code >= 500 {
            logger.error("request failed", metadata: ["code": "\(error.code)"])
        }
        return error.response
    }

    private func keySet() -> Response {
        publishedKeys(tokens.keySetJSON)
    }

    /// A document of public keys, `body` as it is now.
    func publishedKeys(_ body: () throws -> String) -> Response {
        do {
            let body = try body()
            // Five minutes rather than Google's hours: a rotated key signs at once, and a verifier
            // that keeps the set as long as this allows (rather than fetch it again for an unknown
            // kid) refuses the new key's tokens until then.
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=UTF-8", .cacheControl: "public, max-age=300"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        } catch {
            return errorResponse(IdentityToolkitError(status: .internalServerError, "INTERNAL_ERROR", "the keys could not be written"))
        }
    }
}
