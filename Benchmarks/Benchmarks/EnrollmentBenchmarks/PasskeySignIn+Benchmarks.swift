import Benchmark
import Crypto
import Foundation
import Logging
import OTPAuthentication

/// Users with one passkey each (ES256, synced: counter 0, flags UP, UV, BE), made by a software
/// authenticator here on swift-crypto, on a service with an in-memory store. A sign-in is
/// `startPasskeySignIn` (a challenge stored) and `finalizePasskeySignIn` (the challenge taken, the
/// passkey read, the assertion verified, the use recorded, a session stored); the authenticator's
/// signing is done outside the measurement.
final class PasskeySignInFixture: @unchecked Sendable {
    static let relyingPartyID = "example.org"
    static let origin = "https://example.org"

    struct Authenticator {
        let key: P256.Signing.PrivateKey
        let credentialID: [UInt8]
        let userHandle: [UInt8]

        /// authData: the RP ID hash, flags (`extra` added to UP, UV and BE), the counter (0).
        func authenticatorData(extra: UInt8 = 0, attested: [UInt8] = []) -> [UInt8] {
            Array(SHA256.hash(data: Array(PasskeySignInFixture.relyingPartyID.utf8))) + [0x0D | extra, 0, 0, 0, 0] + attested
        }

        static func clientData(_ type: String, _ challenge: [UInt8]) -> [UInt8] {
            // base64url by hand: OTPSealing's codec is package-level, out of this package's reach.
            let encoded = Data(challenge).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            return Array(#"{"type":"\#(type)","challenge":"\#(encoded)","origin":"\#(PasskeySignInFixture.origin)"}"#.utf8)
        }

        /// An attestation object of format none for `options`: the CBOR map
        /// {"fmt": "none", "attStmt": {}, "authData": …} (RFC 8949 heads written out, as the map is fixed).
        func registration(_ options: PasskeyCreationOptions) -> PasskeyRegistrationResponse {
            let point = key.publicKey.x963Representation
            let coseKey: [UInt8] =
                [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + point[1..<33] + [0x22, 0x58, 0x20] + point[33..<65]
            let attested = [UInt8](repeating: 0, count: 16) + [0, UInt8(credentialID.count)] + credentialID + coseKey
            let data = authenticatorData(extra: 0x40, attested: attested)
            let object: [UInt8] =
                [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [0xA0, 0x68]
                + Array("authData".utf8) + [0x59, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data
            return PasskeyRegistrationResponse(
                credentialID: credentialID, clientDataJSON: Self.clientData("webauthn.create", options.challenge), attestationObject: object)
        }

        func assertion(_ options: PasskeyRequestOptions) throws -> PasskeyAssertionResponse {
            let clientData = Self.clientData("webauthn.get", options.challenge)
            let data = authenticatorData()
            let signature = try key.signature(for: data + Array(SHA256.hash(data: clientData)))
            return PasskeyAssertionResponse(
                credentialID: credentialID, clientDataJSON: clientData, authenticatorData: data, signature: Array(signature.derRepresentation),
                userHandle: userHandle)
        }
    }

    let clock = ManualAuthClock(1_800_000_000)
    let service: MultiFactorService
    private var authenticators: [Authenticator] = []
    private var next = 0

    init(users: Int) async throws {
        var logger = Logger(label: "OTPKitBenchmarks")
        logger.logLevel = .critical
        var configuration = MultiFactorConfiguration()
        configuration.passkeys = PasskeySettings(relyingPartyID: Self.relyingPartyID, origins: [Self.origin])
        service = try MultiFactorService(configuration: configuration, store: InMemoryAuthStore(), clock: clock, logger: logger)
        for _ in 0..<users {
            let user = try await service.signInAnonymously()
            let options = try await user.startPasskeyEnrollment()
            let authenticator = Authenticator(
                key: P256.Signing.PrivateKey(), credentialID: (0..<32).map { _ in UInt8.random(in: 0...255) }, userHandle: options.userHandle)
            try await user.finalizePasskeyEnrollment(authenticator.registration(options), name: nil)
            authenticators.append(authenticator)
        }
    }

    /// The next user's assertions for `count` sign-ins, each on a challenge of its own: what the
    /// browsers answer, made before the measurement.
    func startSignIns(_ count: Int) async throws -> [PasskeyAssertionResponse] {
        var assertions: [PasskeyAssertionResponse] = []
        assertions.reserveCapacity(count)
        for _ in 0..<count {
            let authenticator = authenticators[next]
            next = next + 1 == authenticators.count ? 0 : next + 1
            assertions.append(try authenticator.assertion(try await service.startPasskeySignIn()))
        }
        return assertions
    }
}

nonisolated(unsafe) var passkeyFixture: PasskeySignInFixture!

func registerPasskeySignInBenchmarks() {
    // A thousand sign-ins per iteration, with the assertions made (and their challenges stored)
    // outside the measurement; ten thousand users with one passkey each.
    let batched = Benchmark.Configuration(scalingFactor: .kilo)
    Benchmark("otpkit.enrollment.passkey.signin.memory", configuration: batched) { benchmark in
        let assertions = try await passkeyFixture.startSignIns(benchmark.scaledIterations.count)
        benchmark.startMeasurement()
        for assertion in assertions {
            blackHole(try await passkeyFixture.service.finalizePasskeySignIn(assertion))
        }
        benchmark.stopMeasurement()
    } setup: {
        passkeyFixture = try await PasskeySignInFixture(users: 10_000)
    }

    // The limit of the same run: the signature verification alone, of an assertion as above.
    let key = P256.Signing.PrivateKey()
    let message = Array(repeating: UInt8(7), count: 69)
    let signature = try! key.signature(for: message)
    Benchmark("limit.verify.p256", configuration: batched) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(key.publicKey.isValidSignature(signature, for: message)) }
    }
}
