import Benchmark
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OTPAuthentication
import OTPCore
import OTPSealing
import OTPServer

/// What a page costs the server against what the REST API's lookup of the same data costs, in
/// one run: the server's router called as its HTTP server calls it (no socket), on an in-memory
/// store, so that the figures are the pages' own work. The account page of a user with a TOTP
/// factor, recovery codes, a few sessions and the twenty events it shows, against `accounts:lookup`
/// with the user's ID token; the console's page of that user, against the admin `accounts:lookup`.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: 20, scalingFactor: .one, maxDuration: .seconds(5),
        maxIterations: 20_000)
    nonisolated(unsafe) var fixture: PageFixture!
    let setUp: @Sendable () async throws -> Void = {
        if fixture == nil { fixture = try await PageFixture() }
    }
    Benchmark("otpkit.pages.account", configuration: configuration) { _ in
        blackHole(try await fixture.send(.get, "/account", cookie: fixture.userCookie))
    } setup: {
        try await setUp()
    }
    Benchmark("otpkit.pages.rest-lookup", configuration: configuration) { _ in
        blackHole(try await fixture.send(.post, fixture.lookupPath, body: fixture.lookupBody))
    } setup: {
        try await setUp()
    }
    Benchmark("otpkit.pages.console-user", configuration: configuration) { _ in
        blackHole(try await fixture.send(.get, "/admin/users/\(fixture.userID)", cookie: fixture.adminCookie))
    } setup: {
        try await setUp()
    }
    Benchmark("otpkit.pages.rest-admin-lookup", configuration: configuration) { _ in
        blackHole(try await fixture.send(.post, fixture.adminLookupPath, body: fixture.adminLookupBody, bearer: "owner"))
    } setup: {
        try await setUp()
    }
}

struct PageContext: RequestContext, RemoteAddressRequestContext {
    struct Source: RequestContextSource {
        let logger: Logger
    }

    var coreContext: CoreRequestContextStorage
    var remoteAddress: SocketAddress? { try? SocketAddress(ipAddress: "127.0.0.1", port: 0) }

    init(source: Source) {
        coreContext = CoreRequestContextStorage(source: source)
    }
}

struct BodyCollector: ResponseBodyWriter {
    final class Box: @unchecked Sendable {
        var buffer = ByteBuffer()
    }

    let box = Box()

    func write(_ buffer: ByteBuffer) async throws {
        var part = buffer
        box.buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// A server of the routes and the pages under the emulator, with a user and an administrator
/// signed in through the pages as a browser signs in.
final class PageFixture: @unchecked Sendable {
    static let logger = Logger(label: "pages", factory: { _ in SwiftLogNoOpLogHandler() })
    let clock = ManualAuthClock(1_800_000_000)
    let responder: RouterResponder<PageContext>
    var userCookie = ""
    var adminCookie = ""
    var userID = ""
    let lookupPath = "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=bench"
    let adminLookupPath = "/identitytoolkit.googleapis.com/v1/projects/bench/accounts:lookup"
    var lookupBody = ByteBuffer()
    var adminLookupBody = ByteBuffer()

    init() async throws {
        let store = InMemoryAuthStore()
        let keys = try SecretSealer(current: SealingKey.random())
        let service = try MultiFactorService(
            configuration: MultiFactorConfiguration(passwords: PasswordSettings(hashParameters: PasswordHashParameters(logN: 10, r: 8, p: 1))),
            store: store, clock: clock, logger: Self.logger)
        let tokens = await IDTokenIssuer(
            projectID: "bench", signingKeys: IDTokenSigningKeySet(try IDTokenSigningKey.generate(algorithm: .es256)),
            clock: { [clock] in clock.now() })
        let routes = IdentityToolkitRoutes(
            service: service, tokens: tokens, refreshTokenKeys: keys,
            configuration: IdentityToolkitConfiguration(projectID: "bench", isEmulator: true), logger: Self.logger)
        let router = Router(context: PageContext.self)
        routes.addRoutes(to: router)
        try WebPages(routes: routes, keys: keys, configuration: WebPagesConfiguration(administrators: ["root@example.com"]))
            .addRoutes(to: router)
        responder = router.buildResponder()

        // The administrator: an account with a verified address and a TOTP factor.
        _ = try await service.administration.createAccount(
            id: "root", email: "root@example.com", password: "correct horse battery", displayName: nil, photoURL: nil, isEmailVerified: true,
            isDisabled: false)
        let root = try await service.signIn(withEmail: "root@example.com", password: "correct horse battery")
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await root.multiFactor.session())
        let totp = try TOTP(secret: OTPSecret(base32: secret.sharedSecretKey()))
        try await root.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: totp.code(at: clock.now())), displayName: nil)

        // The user: signed up through the page, some sessions, a TOTP factor, recovery codes.
        userCookie = try await signInThroughPages(signUp: true, email: "ada@example.com", code: nil)
        let details = try await service.administration.accountDetails(email: "ada@example.com")
        userID = details?.account.id ?? ""
        _ = try await service.administration.updateAccount(id: userID, isEmailVerified: true)
        let ada = try await service.signIn(withEmail: "ada@example.com", password: "correct horse battery")
        let adaSecret = try await TOTPMultiFactorGenerator.generateSecret(with: try await ada.multiFactor.session())
        let adaTOTP = try TOTP(secret: OTPSecret(base32: adaSecret.sharedSecretKey()))
        try await ada.multiFactor.enroll(
            with: TOTPMultiFactorGenerator.assertionForEnrollment(with: adaSecret, oneTimePassword: adaTOTP.code(at: clock.now())), displayName: nil)
        _ = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await ada.multiFactor.session())
        for _ in 0..<10 {
            clock.advance(by: 30)
            userCookie = try await signInThroughPages(signUp: false, email: "ada@example.com", code: adaTOTP.code(at: clock.now()))
        }
        clock.advance(by: 30)
        adminCookie = try await signInThroughPages(signUp: false, email: "root@example.com", code: totp.code(at: clock.now()))

        let signedIn = try await send(
            .post, "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench",
            body: ByteBuffer(string: #"{"email":"root@example.com","password":"correct horse battery","returnSecureToken":true}"#))
        _ = signedIn
        // The user's ID token for the REST lookup: a refresh of the page's session is not offered, so sign in over REST.
        clock.advance(by: 30)
        let first = try await send(
            .post, "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=bench",
            body: ByteBuffer(string: #"{"email":"ada@example.com","password":"correct horse battery","returnSecureToken":true}"#))
        let pending = Self.field("mfaPendingCredential", in: first.body)
        let enrollment = try await service.administration.enrolledFactors(accountID: userID).first?.uid ?? ""
        let finished = try await send(
            .post, "/identitytoolkit.googleapis.com/v2/accounts/mfaSignIn:finalize?key=bench",
            body: ByteBuffer(
                string:
                    #"{"mfaPendingCredential":"\#(pending)","mfaEnrollmentId":"\#(enrollment)","totpVerificationInfo":{"verificationCode":"\#(adaTOTP.code(at: clock.now()))"}}"#
            ))
        lookupBody = ByteBuffer(string: #"{"idToken":"\#(Self.field("idToken", in: finished.body))"}"#)
        adminLookupBody = ByteBuffer(string: #"{"localId":["\#(userID)"]}"#)
    }

    static func field(_ name: String, in body: String) -> String {
        body.firstMatch(of: try! Regex("\"\(name)\":\"([^\"]+)\"")).map { String($0.output[1].substring ?? "") } ?? ""
    }

    struct Answer {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: String
    }

    func send(
        _ method: HTTPRequest.Method, _ path: String, cookie: String = "", body: ByteBuffer = ByteBuffer(), bearer: String? = nil, form: Bool = false
    )
        async throws -> Answer
    {
        var headers: HTTPFields = [.contentType: form ? "application/x-www-form-urlencoded" : "application/json"]
        if !cookie.isEmpty { headers[.cookie] = cookie }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path, headerFields: headers),
            body: RequestBody(buffer: body))
        let context = PageContext(source: PageContext.Source(logger: Self.logger))
        let response = try await responder.respond(to: request, context: context)
        let collector = BodyCollector()
        try await response.body.write(collector)
        return Answer(status: response.status, headers: response.headers, body: String(buffer: collector.box.buffer))
    }

    /// A browser's sign-in through the pages: the form's seed and token, the password, the code.
    func signInThroughPages(signUp: Bool, email: String, code: String?) async throws -> String {
        let path = signUp ? "/account/sign-up" : "/account/sign-in"
        let page = try await send(.get, path)
        var cookies = Self.cookies(page.headers, into: [:])
        let csrf = page.body.firstMatch(of: #/name="csrf" value="([^"]*)"/#).map { String($0.1) } ?? ""
        let form = "csrf=\(csrf)&email=\(email.replacingOccurrences(of: "@", with: "%40"))&password=correct+horse+battery"
        let posted = try await send(.post, path, cookie: Self.header(cookies), body: ByteBuffer(string: form), form: true)
        cookies = Self.cookies(posted.headers, into: cookies)
        if let code {
            let second = try await send(.get, "/account/second-factor", cookie: Self.header(cookies))
            let token = second.body.firstMatch(of: #/name="csrf" value="([^"]*)"/#).map { String($0.1) } ?? ""
            let done = try await send(
                .post, "/account/second-factor", cookie: Self.header(cookies), body: ByteBuffer(string: "csrf=\(token)&kind=totp&code=\(code)"),
                form: true)
            cookies = Self.cookies(done.headers, into: cookies)
        }
        return Self.header(cookies)
    }

    static func cookies(_ headers: HTTPFields, into cookies: [String: String]) -> [String: String] {
        var cookies = cookies
        for field in headers where field.name == .setCookie {
            let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            cookies[String(pair[0])] = field.value.contains("Max-Age=0") ? nil : (pair.count > 1 ? String(pair[1]) : "")
        }
        return cookies
    }

    static func header(_ cookies: [String: String]) -> String {
        cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }
}
