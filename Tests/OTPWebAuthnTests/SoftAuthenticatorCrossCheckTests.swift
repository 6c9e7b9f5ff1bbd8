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
    static let origin = "http://localhost:9099"
    static let party = RelyingParty(id: "localhost", origins: [origin])

    @Test("its registration and assertions verify; with user verification required they are refused")
    func registersAndSignsIn() async throws {
        let registrationChallenge = PythonAuthenticator.random(32)
        let userHandle = PythonAuthenticator.random(32)
        let challenges = [PythonAuthenticator.random(32), PythonAuthenticator.random(32)]
        let output = try await PythonAuthenticator.run(
            "soft_authenticator.py",
            [
                "rpId": "localhost", "origin": Self.origin, "userHandle": Hex.encode(userHandle),
                "registrationChallenge": Hex.encode(registrationChallenge), "assertionChallenges": challenges.map { Hex.encode($0) },
            ])

        let required = await #expect(throws: WebAuthnError.self) {
            try await Self.party.verifyRegistration(
                clientDataJSON: hex(output.clientDataJSON), attestationObject: hex(output.attestationObject), challenge: registrationChallenge,
                userVerification: .required, now: RelyingPartyTests.now)
        }
        #expect(required == .userNotVerified)
        let credential = try await Self.party.verifyRegistration(
            clientDataJSON: hex(output.clientDataJSON), attestationObject: hex(output.attestationObject), challenge: registrationChallenge,
            userVerification: .preferred, now: RelyingPartyTests.now)
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
