import Foundation
import OTPCore
import Testing

/// A software authenticator in Python that nobody here wrote the cryptography of
/// (Tests/WebAuthnClients): soft-webauthn's, or one on pyca `cryptography` and python-fido2's CBOR
/// for the flags and algorithms soft-webauthn lacks. Both live in soft-webauthn's PyPI folder
/// (it brings python-fido2 1.2 and `cryptography`).
public enum PythonAuthenticator {
    public static let packagePath = "/opt/otpkit-python/soft-webauthn-0.1.4"

    /// What a script answers: one registration and its assertions, each field as bytes.
    public struct Output: Decodable, Sendable {
        public let rawId: String
        public let clientDataJSON: String
        public let attestationObject: String
        /// The root of a `packed-x5c` attestation's chain, DER in hexadecimal.
        public let attestationRoot: String?
        /// The credential's private key, PKCS#8 DER in hexadecimal, to sign with again in a later run.
        public let privateKey: String?
        public let assertions: [Assertion]

        public struct Assertion: Decodable, Sendable {
            public let clientDataJSON: String
            public let authenticatorData: String
            public let signature: String
            public let userHandle: String
        }
    }

    public static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    /// Runs Tests/WebAuthnClients/`script` with `request` (JSON) on its standard input.
    public static func run(_ script: String, _ request: [String: Any]) async throws -> Output {
        try JSONDecoder().decode(Output.self, from: try await standardOutput(script, request))
    }

    /// Runs Tests/WebAuthnClients/`script` with `request` (JSON) on its standard input: the JSON
    /// object it prints.
    public static func object(_ script: String, _ request: [String: Any]) async throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try await standardOutput(script, request)) as? [String: Any])
    }

    static func standardOutput(_ script: String, _ request: [String: Any]) async throws -> Data {
        let python = try ExternalTool.debianPython3.path()
        let run = try await ProcessRunner.run(
            python, [Fixture.url("Tests/WebAuthnClients/\(script)").path], input: Array(try JSONSerialization.data(withJSONObject: request)),
            environment: ["PYTHONPATH": packagePath])
        try #require(run.status == 0, "\(script) failed (is \(packagePath) installed? bash .ci/install python): \(run.stderr)")
        return Data(run.standardOutput)
    }
}
