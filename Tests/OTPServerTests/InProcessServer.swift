import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import OTPAuthentication
import OTPCore
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
    /// The loopback port of a ``live`` server, which clients nobody here wrote reach; 0 for routes
    /// driven through the router alone.
    let port: Int
    var projectID: String { Self.projectID }

    /// Runs `body` against routes under `--emulator` (any API key, `Bearer owner` for admin calls),
    /// or, with `apiKeys`, as a production server taking those keys. Custom tokens of
    /// `customTokenSigners` are accepted (and under the emulator unsigned ones); with `nil`, none.
    /// ID tokens are signed ES256 (cheaper to make) unless `signingAlgorithm` says otherwise.
    ///
    /// `live` serves the routes on a loopback port, in process, for clients that need one (Python's
    /// firebase-admin, PyJWT), with the clock starting at the real time, which they check tokens
    /// against; otherwise requests go through the router alone and the clock starts at a fixed time.
    static func with(
        configuration: MultiFactorConfiguration = Self.configuration, limits: RequestLimits = .none, apiKeys: Set<String>? = nil,
        customTokenSigners: [CustomTokenSigner]? = [], signingAlgorithm: IDTokenSigningAlgorithm = .es256, live: Bool = false,
        _ body: @Sendable (InProcessServer) async throws -> Void
    ) async throws {
        let clock = ManualAuthClock(live ? TOTP.currentUnixTime() : 1_800_000_000)
        // Under the emulator, text messages go to the outbox the emulator lists, as `otpkit-server`
        // sends them; a production server's routes get the configuration's phone settings alone.
        let outbox = apiKeys == nil ? EmulatorSMSOutbox() : nil
        var configuration = configuration
        if outbox != nil, !configuration.phone.isEnabled {
            configuration.phone = PhoneSettings(isEnabled: true, messageTemplate: "{code}")
        }
        let service = try MultiFactorService(configuration: configuration, store: InMemoryAuthStore(), clock: clock, smsSender: outbox)
        let tokens = await IDTokenIssuer(
            projectID: projectID, signingKeys: IDTokenSigningKeySet(try IDTokenSigningKey.generate(algorithm: signingAlgorithm)),
            clock: { clock.now() })
        var customTokens: CustomTokenVerifier?
        if let customTokenSigners {
            customTokens = try await CustomTokenVerifier(signers: customTokenSigners, acceptsUnsigned: apiKeys == nil, clock: { clock.now() })
        }
        let routes = IdentityToolkitRoutes(
            service: service, tokens: tokens, refreshTokenKeys: try SecretSealer(current: SealingKey.random()),
            configuration: IdentityToolkitConfiguration(
                projectID: projectID, apiKeys: apiKeys ?? [], isEmulator: apiKeys == nil, limits: limits),
            verificationCodes: outbox, customTokens: customTokens, logger: Logger(label: "test"))
        let router = Router()
        router.add(middleware: NotFoundMiddleware())
        routes.addRoutes(to: router)
        // HummingbirdTesting's live server listens on "localhost", port 0.
        try await Application(router: router).test(live ? .live : .router) { client in
            try await body(InProcessServer(clock: clock, service: service, client: client, port: client.port ?? 0))
        }
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
        return ServerProcess.Answer(status: Int(response.status.code), body: String(buffer: response.body))
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
