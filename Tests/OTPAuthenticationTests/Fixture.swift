import Foundation
import OTPCore
import OTPAuthentication
import Synchronization
import Testing

/// A service on an in-memory store and a manual clock, with helpers that play the user's
/// authenticator app from the Base32 key the user was shown.
struct Fixture {
    /// A time at the start of a 30-second step, so tests control which step they are in.
    static let start: Int64 = 1_800_000_000

    let clock = ManualAuthClock(Fixture.start)
    let store = InMemoryAuthStore()
    let opener = RecordingOpener(answer: true)
    let service: MultiFactorService

    init(
        _ configuration: MultiFactorConfiguration = MultiFactorConfiguration(), smsSender: (any SMSSender)? = nil,
        emailSender: (any EmailSender)? = nil, identityProviders: [any IdentityTokenVerifier] = []
    ) throws {
        service = try MultiFactorService(
            configuration: configuration, store: store, clock: clock, opener: opener, smsSender: smsSender, emailSender: emailSender,
            identityProviders: identityProviders)
    }

    static func identity(
        _ userID: String = "alice",
        email: String? = "alice@example.com",
        verified: Bool = true,
        provider: FirstFactorProvider = .password
    ) -> FirstFactorIdentity {
        FirstFactorIdentity(userID: userID, email: email, isEmailVerified: verified, provider: provider)
    }

    /// Signs in a user who has no second factor.
    func signIn(_ identity: FirstFactorIdentity = Fixture.identity()) async throws -> User {
        try await service.signIn(identity)
    }

    /// Signs in a user who has second factors, returning the resolver.
    func resolver(_ identity: FirstFactorIdentity = Fixture.identity()) async throws -> MultiFactorResolver {
        let error = await #expect(throws: AuthError.self) { try await service.signIn(identity) }
        #expect(error?.code == .secondFactorRequired)
        return try #require(error?.resolver)
    }

    /// The generator an authenticator app builds from what the user was shown.
    static func authenticator(_ secret: TOTPSecret) throws -> TOTP {
        try TOTP(
            secret: OTPSecret(base32: secret.sharedSecretKey()),
            algorithm: try #require(OTPAlgorithm(name: secret.hashingAlgorithm)),
            digits: secret.codeLength,
            period: Int64(secret.codeIntervalSeconds)
        )
    }

    /// The code an authenticator app shows for `secret` at `time` (now by default).
    func code(_ secret: TOTPSecret, at time: Int64? = nil) throws -> String {
        try Fixture.authenticator(secret).code(at: time ?? clock.now())
    }

    /// A code the service must reject for `secret` at `time` (now by default).
    func wrongCode(_ secret: TOTPSecret, at time: Int64? = nil) throws -> String {
        try codeOutsideWindow(secret, at: time ?? clock.now(), adjacentIntervals: service.configuration.adjacentIntervals)
    }

    /// Enrolls a TOTP factor for `user` and returns its secret and info.
    @discardableResult
    func enroll(_ user: User, displayName: String? = "Authenticator") async throws -> (secret: TOTPSecret, info: MultiFactorInfo) {
        let session = try await user.multiFactor.session()
        let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
        let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: try code(secret))
        try await user.multiFactor.enroll(with: assertion, displayName: displayName)
        let info = try #require(user.multiFactor.enrolledFactors.last)
        return (secret, info)
    }

    /// Moves the clock to the start of the next time step, so a new code exists.
    func nextStep() {
        clock.advance(by: 30 - clock.now() % 30)
    }
}

/// Records what ``TOTPSecret/openInOTPApp(withQRCodeURL:)`` hands over.
final class RecordingOpener: OTPAppOpener {
    let answer: Bool
    let opened = Mutex<[String]>([])

    init(answer: Bool) {
        self.answer = answer
    }

    func open(_ url: String) -> Bool {
        opened.withLock { $0.append(url) }
        return answer
    }
}

/// Runs `body` and returns the ``AuthErrorCode`` it threw, failing the test when it threw nothing.
func authErrorCode(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> AuthErrorCode? {
    do {
        try await body()
        Issue.record("expected an AuthError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as AuthError {
        return error.code
    } catch {
        Issue.record("expected an AuthError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A code of `secret`'s length that no step within `adjacentIntervals` of `time` shows. Flipping
/// the digits of the current code is not enough: a random secret's neighbouring step may show
/// exactly the flipped code, and the service would accept it.
func codeOutsideWindow(_ secret: TOTPSecret, at time: Int64, adjacentIntervals: Int) throws -> String {
    let totp = try Fixture.authenticator(secret)
    let step = try totp.step(at: time)
    let spread = UInt64(adjacentIntervals)
    let accepted = Set((step - spread...step + spread).map { totp.code(step: $0) })
    // One candidate more than there are accepted codes, so at least one is free.
    let candidates = (0...accepted.count).map { number in
        let digits = String(number)
        return String(repeating: "0", count: secret.codeLength - digits.count) + digits
    }
    return try #require(candidates.first { !accepted.contains($0) })
}
