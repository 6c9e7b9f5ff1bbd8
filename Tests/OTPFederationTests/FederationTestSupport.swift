import Crypto
import OTPAuthentication
import OTPFederation
import OTPLoopbackHTTP
import Synchronization
import Testing

/// A clock a test sets: the verifier's lifetimes and key cache read it instead of the system's.
final class TestClock: Sendable {
    private let time: Mutex<Double>

    init(_ start: Double = TestClock.start) {
        time = Mutex(start)
    }

    /// A fixed instant (2027-01-15) every token of a test is issued around.
    static let start: Double = 1_800_000_000

    var now: Double { time.withLock { $0 } }

    func advance(by seconds: Double) {
        time.withLock { $0 += seconds }
    }

    /// The clock as the verifier takes it.
    var source: @Sendable () -> Double { { self.now } }
}

/// A provider, a clock and a verifier of the provider's tokens for one test, the provider stopped
/// at the end whatever the test did.
func withVerifier(
    cacheControl: String? = "public, max-age=3600",
    clockSkew: Duration = .seconds(60),
    maximumTokenAge: Duration? = nil,
    keyFetchTimeout: Duration = .seconds(10),
    keySetQuery: String = "",
    _ body: (TestIdentityProvider, TestClock, OpenIDTokenVerifier) async throws -> Void
) async throws {
    let provider = try await TestIdentityProvider.start(cacheControl: cacheControl)
    let clock = TestClock()
    let settings = try OpenIDProviderSettings(
        providerID: "oidc.test", issuers: [provider.issuer], audiences: [provider.audience],
        keySource: .url(provider.jwksURL + keySetQuery), clockSkew: clockSkew, maximumTokenAge: maximumTokenAge,
        keyFetchTimeout: keyFetchTimeout)
    let verifier = OpenIDTokenVerifier(settings: settings, clock: clock.source)
    do {
        try await body(provider, clock, verifier)
    } catch {
        try? await provider.stop()
        throw error
    }
    try await provider.stop()
}

/// The message of the `rejected` error `verifier` throws for `token`, after checking that it
/// names every one of `reasons` and quotes no part of the token. Nil, with a recorded issue, when
/// the token was accepted or the error was another.
@discardableResult
func expectRejected(
    _ token: String, by verifier: OpenIDTokenVerifier, nonce: String? = nil, mentioning reasons: [String],
    sourceLocation: SourceLocation = #_sourceLocation
) async -> String? {
    let message: String
    do {
        let identity = try await verifier.verify(idToken: token, nonce: nonce)
        Issue.record("accepted, as \(identity.subject); expected a refusal mentioning \(reasons)", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard case .rejected(let reason) = error else {
            Issue.record("expected rejected, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        message = reason
    }
    for reason in reasons {
        #expect(message.contains(reason), "\(message.debugDescription) does not mention \(reason.debugDescription)", sourceLocation: sourceLocation)
    }
    expectNoTokenText(of: token, in: message, sourceLocation: sourceLocation)
    return message
}

/// Checks that `message` quotes neither the token nor any of its parts (header, payload,
/// signature) nor a long run of any of them.
func expectNoTokenText(of token: String, in message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    for part in parts where part.count >= 12 {
        // Any 12 characters in a row of a part: an excerpt is as bad as the whole.
        let characters = Array(part)
        let leaked = stride(from: 0, through: characters.count - 12, by: 4).contains { start in
            message.contains(String(characters[start..<start + 12]))
        }
        #expect(!leaked, "the message quotes the token: \(message.debugDescription)", sourceLocation: sourceLocation)
    }
}

/// Assembles a token from the JSON of its header and payload and a signature text, without
/// signing: the forgeries (`alg: none`, altered parts) a verifier must refuse.
func assembledToken(header: String, payload: String, signature: String = "") -> String {
    TestIdentityProvider.base64URL(Array(header.utf8)) + "." + TestIdentityProvider.base64URL(Array(payload.utf8)) + "." + signature
}

/// The claims of a valid token of `provider` as JSON, for tokens a test assembles or signs elsewhere.
func validClaimsJSON(_ provider: TestIdentityProvider, at time: Double = TestClock.start, extra: String = "") -> String {
    let issuedAt = Int(time)
    return #"{"iss":"\#(provider.issuer)","sub":"user-42","aud":"\#(provider.audience)","iat":\#(issuedAt),"exp":\#(issuedAt + 3600)"#
        + (extra.isEmpty ? "" : ",\(extra)") + "}"
}

/// SHA-256 in lowercase hexadecimal by swift-crypto, not the OpenSSL call the verifier makes.
func sha256Hex(_ text: String) -> String {
    SHA256.hash(data: Array(text.utf8)).map { byte in
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }.joined()
}
