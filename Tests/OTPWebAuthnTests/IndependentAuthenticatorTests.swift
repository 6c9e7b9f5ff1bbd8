import Foundation
import OTPCore
import OTPTestUtilities
import OTPWebAuthn
import Testing
import X509

/// Credentials of every algorithm OTPKit verifies, made by a software authenticator on pyca
/// `cryptography` and python-fido2's CBOR (Tests/WebAuthnClients/authenticator.py), with user
/// verification and backup flags set, attestation none and packed self: registered and signed in
/// with user verification required.
@Suite("WebAuthn cross-checked with an authenticator on pyca cryptography")
struct IndependentAuthenticatorTests {
    static let origin = "https://login.example.com"
    static let party = RelyingParty(id: "example.com", origins: [origin])

    struct Case: Sendable, CustomTestStringConvertible {
        let algorithm: COSEAlgorithm
        let attestation: String
        var testDescription: String { "\(algorithm) \(attestation)" }
    }

    static let cases = [COSEAlgorithm.es256, .eddsa, .rs256].flatMap { algorithm in
        ["none", "packed"].map { Case(algorithm: algorithm, attestation: $0) }
    }

    @Test("registered and signed in with user verification required", arguments: cases)
    func registersAndSignsIn(_ testCase: Case) async throws {
        let registrationChallenge = PythonAuthenticator.random(32)
        let challenges = [PythonAuthenticator.random(32), PythonAuthenticator.random(32)]
        let output = try await PythonAuthenticator.run(
            "authenticator.py",
            [
                "rpId": "example.com", "origin": Self.origin, "algorithm": testCase.algorithm.rawValue, "attestation": testCase.attestation,
                "userHandle": Hex.encode(PythonAuthenticator.random(16)), "flags": ["uv": true, "be": true, "bs": true],
                "registrationChallenge": Hex.encode(registrationChallenge), "assertionChallenges": challenges.map { Hex.encode($0) },
            ])
        let credential = try await Self.party.verifyRegistration(
            clientDataJSON: hex(output.clientDataJSON), attestationObject: hex(output.attestationObject), challenge: registrationChallenge,
            userVerification: .required, now: RelyingPartyTests.now)
        #expect(credential.id == hex(output.rawId) && credential.algorithm == testCase.algorithm)
        #expect(credential.userVerified && credential.backupEligible && credential.backedUp)
        #expect(credential.attestationTrust == (testCase.attestation == "packed" ? .self : .none))

        var signCount = credential.signCount
        for (challenge, assertion) in zip(challenges, output.assertions) {
            let stored = RegisteredCredential(
                id: credential.id, publicKey: credential.publicKey, algorithm: credential.algorithm, signCount: signCount,
                userVerified: true, backupEligible: true, backedUp: true, aaguid: credential.aaguid,
                attestationFormat: credential.attestationFormat, attestationTrust: credential.attestationTrust)
            let verified = try Self.party.verifyAssertion(
                clientDataJSON: hex(assertion.clientDataJSON), authenticatorData: hex(assertion.authenticatorData),
                signature: hex(assertion.signature), challenge: challenge, userVerification: .required, credential: stored)
            #expect(verified.signCount == signCount + 1 && verified.userVerified)
            signCount = verified.signCount
        }
    }

    @Test("a packed x5c attestation by a certificate pyca cryptography made chains to its root, and to no other")
    func certificateChain() async throws {
        let registrationChallenge = PythonAuthenticator.random(32)
        let output = try await PythonAuthenticator.run(
            "authenticator.py",
            [
                "rpId": "example.com", "origin": Self.origin, "algorithm": COSEAlgorithm.eddsa.rawValue, "attestation": "packed-x5c",
                "userHandle": Hex.encode(PythonAuthenticator.random(16)), "flags": ["uv": true, "be": false, "bs": false],
                "registrationChallenge": Hex.encode(registrationChallenge), "assertionChallenges": [String](),
                "certificateTime": RelyingPartyTests.now.timeIntervalSince1970,
            ])
        let root = try Certificate(derEncoded: hex(try #require(output.attestationRoot)))
        func register(_ anchors: [Certificate], required: Bool) async throws(WebAuthnError) -> RegisteredCredential {
            let party = RelyingParty(
                id: "example.com", origins: [Self.origin], attestation: AttestationPolicy(trustAnchors: anchors, requiresTrustedAttestation: required)
            )
            return try await party.verifyRegistration(
                clientDataJSON: hex(output.clientDataJSON), attestationObject: hex(output.attestationObject), challenge: registrationChallenge,
                userVerification: .required, now: RelyingPartyTests.now)
        }
        #expect(try await register([root], required: true).attestationTrust == .trusted)
        #expect(try await register([], required: false).attestationTrust == .uncertain)
        let otherRoot = try Certificate(derEncoded: hex(try W3CTestVectors.load().attestationRootCertificate))
        let error = await #expect(throws: WebAuthnError.self) { try await register([otherRoot], required: false) }
        guard case .untrustedAttestation = error else {
            Issue.record("a chain to another root: \(String(describing: error))")
            return
        }
    }
}
