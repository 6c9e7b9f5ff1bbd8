import Foundation
import OTPCore
import OTPTestUtilities
import OTPWebAuthn
import Testing

/// Registrations and assertions made by soft-webauthn (PyPI), a software authenticator nobody here
/// wrote (Tests/WebAuthnClients/soft_authenticator.py), verified by ``RelyingParty``. soft-webauthn
/// never sets the user-verified flag, so with user verification required its responses must be
/// refused (PASSKEYS.md E.1); its counter goes up by one a signature, so an older assertion
/// replayed after a newer one is refused as a possible clone.
@Suite("WebAuthn cross-checked with soft-webauthn")
struct SoftAuthenticatorCrossCheckTests {
    static let packagePath = "/opt/otpkit-python/soft-webauthn-0.1.4"
    static let origin = "http://localhost:9099"
    static let party = RelyingParty(id: "localhost", origins: [origin])

    struct Output: Decodable {
        let rawId: String
        let clientDataJSON: String
        let attestationObject: String
        let assertions: [Assertion]

        struct Assertion: Decodable {
            let clientDataJSON: String
            let authenticatorData: String
            let signature: String
            let userHandle: String
        }
    }

    static func random(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255) } }

    /// One credential registered with `registrationChallenge` and signed in with each of `challenges`.
    static func authenticator(registrationChallenge: [UInt8], userHandle: [UInt8], challenges: [[UInt8]]) async throws -> Output {
        let python = try ExternalTool.debianPython3.path()
        let script = Fixture.url("Tests/WebAuthnClients/soft_authenticator.py").path
        let request: [String: Any] = [
            "rpId": "localhost", "origin": origin, "userHandle": Hex.encode(userHandle), "registrationChallenge": Hex.encode(registrationChallenge),
            "assertionChallenges": challenges.map { Hex.encode($0) },
        ]
        let run = try await ProcessRunner.run(
            python, [script], input: Array(try JSONSerialization.data(withJSONObject: request)), environment: ["PYTHONPATH": packagePath])
        try #require(
            run.status == 0, "soft-webauthn failed (is it installed in \(packagePath)? bash .ci/install python): \(run.stderr)")
        return try JSONDecoder().decode(Output.self, from: Data(run.standardOutput))
    }

    @Test("its registration and assertions verify; with user verification required they are refused")
    func registersAndSignsIn() async throws {
        let registrationChallenge = Self.random(32)
        let userHandle = Self.random(32)
        let challenges = [Self.random(32), Self.random(32)]
        let output = try await Self.authenticator(registrationChallenge: registrationChallenge, userHandle: userHandle, challenges: challenges)

        let required = await #expect(throws: WebAuthnError.self) {
            try await Self.party.verifyRegistration(
                clientDataJSON: hex(output.clientDataJSON), attestationObject: hex(output.attestationObject), challenge: registrationChallenge,
                userVerification: .required, now: Date())
        }
        #expect(required == .userNotVerified)
        let credential = try await Self.party.verifyRegistration(
            clientDataJSON: hex(output.clientDataJSON), attestationObject: hex(output.attestationObject), challenge: registrationChallenge,
            userVerification: .preferred, now: Date())
        #expect(credential.id == hex(output.rawId) && credential.algorithm == .es256 && credential.attestationFormat == "none")
        #expect(!credential.userVerified && credential.signCount == 0)

        var stored = credential
        for (challenge, assertion) in zip(challenges, output.assertions) {
            #expect(hex(assertion.userHandle) == userHandle)
            let verify = { (credential: RegisteredCredential, userVerification: UserVerification) throws(WebAuthnError) in
                try Self.party.verifyAssertion(
                    clientDataJSON: hex(assertion.clientDataJSON), authenticatorData: hex(assertion.authenticatorData),
                    signature: hex(assertion.signature), challenge: challenge, userVerification: userVerification, credential: credential)
            }
            #expect(throws: WebAuthnError.userNotVerified) { try verify(stored, .required) }
            let verified = try verify(stored, .preferred)
            #expect(verified.signCount == stored.signCount + 1)
            stored = RegisteredCredential(
                id: stored.id, publicKey: stored.publicKey, algorithm: stored.algorithm, signCount: verified.signCount,
                userVerified: stored.userVerified, backupEligible: stored.backupEligible, backedUp: verified.backedUp, aaguid: stored.aaguid,
                attestationFormat: stored.attestationFormat, attestationTrust: stored.attestationTrust)
        }
        // The first assertion again, after the second: its counter is behind the stored one.
        let first = output.assertions[0]
        #expect(throws: WebAuthnError.signCountNotIncreased(stored: 2, received: 1)) {
            try Self.party.verifyAssertion(
                clientDataJSON: hex(first.clientDataJSON), authenticatorData: hex(first.authenticatorData), signature: hex(first.signature),
                challenge: challenges[0], userVerification: .preferred, credential: stored)
        }
    }
}
