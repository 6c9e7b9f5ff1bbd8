import Foundation
import OTPWebAuthn
import Testing

/// Registrations and assertions of W3C Web Authentication Level 3's test vectors through
/// ``RelyingParty``: the specification's own bytes, verified as a relying party must.
@Suite("WebAuthn relying party on the W3C test vectors")
struct RelyingPartyTests {
    /// 2026-11-29: inside the attestation certificates' validity (2024 to 3024).
    static let now = Date(timeIntervalSince1970: 1_796_000_000)

    static func party(allowsCrossOrigin: Bool = false, attestation: AttestationPolicy = AttestationPolicy()) throws -> RelyingParty {
        let vectors = try W3CTestVectors.load()
        return RelyingParty(id: vectors.rpID, origins: [vectors.origin], allowsCrossOrigin: allowsCrossOrigin, attestation: attestation)
    }

    static func register(_ vector: W3CTestVectors.Vector, with party: RelyingParty) async throws(WebAuthnError) -> RegisteredCredential {
        try await party.verifyRegistration(
            clientDataJSON: vector.registration("clientDataJSON"), attestationObject: vector.registration("attestationObject"),
            challenge: vector.registration("challenge"), userVerification: .preferred, now: now)
    }

    static func assert(_ vector: W3CTestVectors.Vector, with party: RelyingParty, credential: RegisteredCredential) throws(WebAuthnError)
        -> VerifiedAssertion
    {
        try party.verifyAssertion(
            clientDataJSON: vector.authentication("clientDataJSON"), authenticatorData: vector.authentication("authenticatorData"),
            signature: vector.authentication("signature"), challenge: vector.authentication("challenge"), userVerification: .preferred,
            credential: credential)
    }

    @Test(
        "each registration verifies, and the credential it yields verifies the assertion",
        arguments: try W3CTestVectors.named("none-es256", "packed-self-es256", "none-es256-long-credential-id", "packed-rs256", "packed-eddsa"))
    func registersAndAsserts(_ vector: W3CTestVectors.Vector) async throws {
        let party = try Self.party()
        let credential = try await Self.register(vector, with: party)
        #expect(credential.id == vector.registration("credential_id"))
        #expect(credential.aaguid == vector.registration("aaguid"))
        let expectedTrust: AttestationTrust = vector.anchor.contains("packed-self") ? .self : vector.anchor.contains("none") ? .none : .uncertain
        #expect(credential.attestationTrust == expectedTrust)
        let assertion = try Self.assert(vector, with: party, credential: credential)
        #expect(assertion.signCount == 0)
    }

    @Test("a packed x5c attestation chains to the specification's root when it is the trust anchor")
    func trustedChain() async throws {
        let vectors = try W3CTestVectors.load()
        let vector = try #require(try W3CTestVectors.named("packed-es256").first)
        let untrusted = try await Self.register(vector, with: try Self.party())
        #expect(untrusted.attestationTrust == .uncertain && untrusted.attestationFormat == "packed")
        let anchored = try Self.party(attestation: AttestationPolicy(trustAnchors: [try vectors.root], requiresTrustedAttestation: true))
        let trusted = try await Self.register(vector, with: anchored)
        #expect(trusted.attestationTrust == .trusted)
        _ = try Self.assert(vector, with: anchored, credential: trusted)
        // The same chain a thousand years later is not trusted, nor self attestation where trust is required.
        let late = await #expect(throws: WebAuthnError.self) {
            try await anchored.verifyRegistration(
                clientDataJSON: vector.registration("clientDataJSON"), attestationObject: vector.registration("attestationObject"),
                challenge: vector.registration("challenge"), userVerification: .preferred, now: Date(timeIntervalSince1970: 40_000_000_000))
        }
        guard case .untrustedAttestation = late else { throw Unexpected(late) }
        let selfAttested = try #require(try W3CTestVectors.named("packed-self-es256").first)
        let refused = await #expect(throws: WebAuthnError.self) { try await Self.register(selfAttested, with: anchored) }
        guard case .untrustedAttestation = refused else { throw Unexpected(refused) }
    }

    @Test(
        "a response from a cross-origin frame is refused unless the relying party allows it",
        arguments: try W3CTestVectors.named("none-es256-crossOrigin", "none-es256-topOrigin"))
    func crossOrigin(_ vector: W3CTestVectors.Vector) async throws {
        let error = await #expect(throws: WebAuthnError.self) { try await Self.register(vector, with: try Self.party()) }
        guard case .mismatch(let detail) = error, detail.contains("cross-origin") else { throw Unexpected(error) }
        let allowing = try Self.party(allowsCrossOrigin: true)
        let credential = try await Self.register(vector, with: allowing)
        _ = try Self.assert(vector, with: allowing, credential: credential)
    }

    @Test(
        "algorithms OTPKit does not verify are refused as unsupported",
        arguments: try W3CTestVectors.named("packed-es384", "packed-es512", "packed-ed448"))
    func unsupportedAlgorithms(_ vector: W3CTestVectors.Vector) async throws {
        let error = await #expect(throws: WebAuthnError.self) { try await Self.register(vector, with: try Self.party()) }
        guard case .unsupported(let detail) = error, detail.contains("algorithm") else { throw Unexpected(error) }
    }

    @Test(
        "formats OTPKit does not verify are refused, or registered as none when the policy says so",
        arguments: try W3CTestVectors.named("tpm-es256", "android-key-es256", "apple-es256", "fido-u2f-es256"))
    func otherFormats(_ vector: W3CTestVectors.Vector) async throws {
        let error = await #expect(throws: WebAuthnError.self) { try await Self.register(vector, with: try Self.party()) }
        guard case .unsupported(let detail) = error, detail.contains("attestation format") else { throw Unexpected(error) }
        let lenient = try Self.party(attestation: AttestationPolicy(otherFormats: .acceptAsNone))
        let credential = try await Self.register(vector, with: lenient)
        #expect(credential.attestationTrust == .none)
        _ = try Self.assert(vector, with: lenient, credential: credential)
    }

    @Test("user verification, when required, must be in the flags")
    func userVerificationRequired() async throws {
        let party = try Self.party()
        for vector in try W3CTestVectors.named("none-es256", "packed-self-es256", "packed-es256") {
            let verified = try await Self.register(vector, with: party).userVerified
            do {
                _ = try await party.verifyRegistration(
                    clientDataJSON: vector.registration("clientDataJSON"), attestationObject: vector.registration("attestationObject"),
                    challenge: vector.registration("challenge"), userVerification: .required, now: Self.now)
                #expect(verified, "\(vector.testDescription): accepted without UV")
            } catch {
                #expect(!verified && error == .userNotVerified, "\(vector.testDescription): \(error)")
            }
        }
    }
}

/// A test's complaint about an error of the wrong kind.
struct Unexpected: Error, CustomStringConvertible {
    let error: WebAuthnError?
    init(_ error: WebAuthnError?) { self.error = error }
    var description: String { "unexpected: \(error.map(String.init(describing:)) ?? "no error")" }
}
