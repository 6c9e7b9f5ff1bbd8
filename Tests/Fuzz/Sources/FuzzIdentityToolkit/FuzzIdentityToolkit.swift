import Dispatch
import Foundation
import FuzzSupport
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OTPAuthentication
import OTPCore
import OTPSealing
import OTPServer

/// libFuzzer entry point: one request through `otpkit-server`'s routes under `--emulator`, in
/// process (their router's responder, called directly), on an in-memory store.
///
/// An input is `PATH\nBODY`: the first line a path the routes serve (`admin ` before it adds the
/// emulator's `Authorization: Bearer owner`, `GET ` makes it a GET), the rest the JSON body. So
/// that the fuzzer gets past the credentials to what each endpoint does with its body, `$ID_TOKEN`,
/// `$REFRESH_TOKEN`, `$PENDING`, `$ENROLLMENT`, `$OOB_CODE`, `$SESSION_INFO`, `$UID` and `$CODE` in
/// the input become a live ID token, refresh token, pending second-factor sign-in, TOTP enrollment,
/// email action code, text message session, user id and current TOTP code of an account made at the
/// start (`Fixtures`).
///
/// Every answer must be below 500, and every error Google's error JSON with its status as its code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIdentityToolkit(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    Harness.shared.handle(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Hands each input from libFuzzer's thread to the router's task and waits for its answer: the
/// routes are async, libFuzzer calls synchronously.
final class Harness: Sendable {
    static let shared = Harness()
    /// Inputs served by one store before a fresh one, so that what inputs sign up stays bounded.
    static let inputsPerStore = 10_000

    private let inputs: AsyncStream<[UInt8]>.Continuation
    private let answered = DispatchSemaphore(value: 0)

    private init() {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        inputs = continuation
        let answered = answered
        Task {
            while true {
                do {
                    try await Self.serve(stream, answered: answered)
                } catch {
                    fatalError("the fuzz harness could not set up its server: \(error)")
                }
            }
        }
    }

    func handle(_ input: [UInt8]) {
        inputs.yield(input)
        answered.wait()
    }

    /// Up to ``inputsPerStore`` inputs against routes on a new store.
    private static func serve(_ inputs: AsyncStream<[UInt8]>, answered: DispatchSemaphore) async throws {
        let clock = ManualAuthClock(1_800_000_000)
        // Cheap password hashes: what is fuzzed is the handling around them.
        var configuration = MultiFactorConfiguration(passwords: PasswordSettings(hashParameters: try PasswordHashParameters(logN: 10, r: 1, p: 1)))
        configuration.phone = PhoneSettings(isEnabled: true, messageTemplate: "{code}")
        configuration.passkeys = PasskeySettings(relyingPartyID: "localhost", origins: ["http://localhost:9099"])
        let outbox = EmulatorSMSOutbox()
        let mail = EmulatorMailOutbox()
        let service = try MultiFactorService(
            configuration: configuration, store: InMemoryAuthStore(), clock: clock, smsSender: outbox, emailSender: mail,
            identityProviders: ["google.com", "apple.com"].map { EmulatorIdentityTokenVerifier(providerID: $0) })
        let tokens = await IDTokenIssuer(
            projectID: Fixtures.projectID, signingKeys: IDTokenSigningKeySet(try IDTokenSigningKey.generate(algorithm: .es256)),
            clock: { clock.now() })
        let routes = IdentityToolkitRoutes(
            service: service, tokens: tokens, refreshTokenKeys: try SecretSealer(current: SealingKey.random()),
            configuration: IdentityToolkitConfiguration(projectID: Fixtures.projectID, apiKeys: [], isEmulator: true),
            verificationCodes: outbox, mailOutbox: mail,
            customTokens: try await CustomTokenVerifier(signers: [], acceptsUnsigned: true, clock: { clock.now() }),
            logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() }))
        let router = Router(context: FuzzContext.self)
        router.add(middleware: NotFoundMiddleware())
        routes.addRoutes(to: router)
        let fuzzRoutes = FuzzRoutes(responder: router.buildResponder())
        let fixtures = try await Fixtures.make(fuzzRoutes, clock: clock)
        // One iterator at a time: the previous store's is gone.
        var iterator = inputs.makeAsyncIterator()
        for _ in 0..<inputsPerStore {
            guard let input = await iterator.next() else { return }
            try await FuzzRequest(input, fixtures: fixtures).send(fuzzRoutes)
            answered.signal()
        }
    }
}
