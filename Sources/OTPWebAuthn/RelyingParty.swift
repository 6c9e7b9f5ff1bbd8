import Crypto
import OTPCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A WebAuthn relying party: verifies registrations (W3C Web Authentication Level 3, section 7.1)
/// and assertions (section 7.2) for its RP ID and origins.
///
/// The caller keeps the ceremonies: it makes the options and their challenge, finds the challenge
/// again (single use, short-lived), looks up the credential an assertion names and checks that its
/// user handle is the owner's (section 7.2, steps 5 and 6), refuses a credential ID registered
/// before (section 7.1, step 26), and stores what a verification returns.
public struct RelyingParty: Sendable {
    /// The RP ID: a registrable domain (`example.com`), or `localhost`.
    public let id: String
    /// The origins a response may come from, exactly (`https://example.com`, `http://localhost:9099`).
    public let origins: Set<String>
    /// Whether a response from a cross-origin iframe (`crossOrigin`, `topOrigin`) is accepted.
    public var allowsCrossOrigin: Bool
    /// The algorithms the options offer, in order of preference; a credential of another is refused.
    public var algorithms: [COSEAlgorithm]
    public var attestation: AttestationPolicy

    private let idHash: [UInt8]

    public init(
        id: String, origins: Set<String>, allowsCrossOrigin: Bool = false, algorithms: [COSEAlgorithm] = [.eddsa, .es256, .rs256],
        attestation: AttestationPolicy = AttestationPolicy()
    ) {
        self.id = id
        self.origins = origins
        self.allowsCrossOrigin = allowsCrossOrigin
        self.algorithms = algorithms
        self.attestation = attestation
        self.idHash = Array(SHA256.hash(data: Array(id.utf8)))
    }

    /// Verifies a registration response against the challenge its options carried.
    ///
    /// - Parameters:
    ///   - clientDataJSON: The response's `clientDataJSON`, decoded from base64.
    ///   - attestationObject: The response's `attestationObject`, decoded from base64.
    ///   - challenge: The challenge of the options this response answers.
    ///   - userVerification: What the options asked for.
    ///   - now: The time certificate chains are validated at.
    public func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8], userVerification: UserVerification, now: Date
    ) async throws(WebAuthnError) -> RegisteredCredential {
        try await verifyRegistration(
            clientData: CollectedClientData(clientDataJSON), attestationObject: attestationObject, challenge: challenge,
            userVerification: userVerification, now: now)
    }

    /// Verifies a registration response whose client data the caller parsed already (to find the
    /// ceremony its challenge belongs to), as ``verifyRegistration(clientDataJSON:attestationObject:challenge:userVerification:now:)``.
    public func verifyRegistration(
        clientData: CollectedClientData, attestationObject: [UInt8], challenge: [UInt8], userVerification: UserVerification, now: Date
    ) async throws(WebAuthnError) -> RegisteredCredential {
        // Steps 5–12.
        try checkClientData(clientData, type: "webauthn.create", challenge: challenge)
        let clientDataHash = Array(SHA256.hash(data: clientData.json))
        // Steps 13–19.
        let object = try AttestationObject(attestationObject)
        let data = object.authenticatorData
        try checkFlags(of: data, userVerification: userVerification)
        guard let credential = data.attestedCredential else {
            throw .malformed("the registration's authenticator data has no attested credential (flag AT)")
        }
        // Step 20.
        let key = try COSEKey(credential.publicKey)
        guard algorithms.contains(key.algorithm) else {
            throw .mismatch("the credential's algorithm \(key.algorithm.rawValue) was not offered (\(algorithms.map(\.rawValue)))")
        }
        // Steps 21–24.
        let trust: AttestationTrust
        switch object.format {
        case "none":
            guard object.statement == .map([]) else { throw .malformed("the attestation format none has a statement") }
            trust = .none
        case "packed":
            trust = try await PackedAttestation.verify(
                object.statement, authenticatorData: data, aaguid: credential.aaguid, credentialKey: key, clientDataHash: clientDataHash,
                policy: attestation, now: now)
        default:
            guard attestation.otherFormats == .acceptAsNone else {
                throw .unsupported("the attestation format \(object.format.debugDescription) (none and packed are verified)")
            }
            trust = .none
        }
        if attestation.requiresTrustedAttestation && trust != .trusted {
            throw .untrustedAttestation("attestation by a trusted authenticator is required, and this one is \(trust.rawValue)")
        }
        return RegisteredCredential(
            id: credential.credentialID, publicKey: credential.publicKey, algorithm: key.algorithm, signCount: data.signCount,
            userVerified: data.flags.contains(.userVerified), backupEligible: data.flags.contains(.backupEligible),
            backedUp: data.flags.contains(.backedUp), aaguid: credential.aaguid, attestationFormat: object.format, attestationTrust: trust)
    }

    /// Verifies an assertion by `credential` against the challenge its options carried.
    ///
    /// A signature counter that does not increase (when either count is non-zero) is refused as a
    /// possible clone: ``WebAuthnError/signCountNotIncreased(stored:received:)``.
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8], userVerification: UserVerification,
        credential: RegisteredCredential
    ) throws(WebAuthnError) -> VerifiedAssertion {
        try verifyAssertion(
            clientData: CollectedClientData(clientDataJSON), authenticatorData: authenticatorData, signature: signature, challenge: challenge,
            userVerification: userVerification, publicKey: credential.publicKey, signCount: credential.signCount,
            backupEligible: credential.backupEligible)
    }

    /// Verifies an assertion against the challenge its options carried, its client data parsed
    /// already (to find the ceremony its challenge belongs to), by the credential whose stored COSE
    /// `publicKey`, last `signCount` and `backupEligible` flag are given: what a store keeps of a
    /// ``RegisteredCredential`` to verify its assertions.
    public func verifyAssertion(
        clientData: CollectedClientData, authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8],
        userVerification: UserVerification, publicKey: [UInt8], signCount: UInt32, backupEligible: Bool
    ) throws(WebAuthnError) -> VerifiedAssertion {
        // Steps 8–14.
        try checkClientData(clientData, type: "webauthn.get", challenge: challenge)
        // Steps 15–18.
        let data = try AuthenticatorData(authenticatorData)
        guard data.attestedCredential == nil else { throw .malformed("an assertion's authenticator data carries a credential (flag AT)") }
        try checkFlags(of: data, userVerification: userVerification)
        // Step 19: backup eligibility is fixed when the credential is made.
        guard data.flags.contains(.backupEligible) == backupEligible else {
            throw .mismatch("the credential's backup eligibility (flag BE) changed since it was registered")
        }
        // Steps 20–21.
        let key = try COSEKey(publicKey)
        guard key.isValidSignature(signature, for: authenticatorData + Array(SHA256.hash(data: clientData.json))) else {
            throw .invalidSignature("the assertion's signature")
        }
        // Step 22.
        if (data.signCount != 0 || signCount != 0) && data.signCount <= signCount {
            throw .signCountNotIncreased(stored: signCount, received: data.signCount)
        }
        return VerifiedAssertion(
            signCount: data.signCount, userVerified: data.flags.contains(.userVerified), backedUp: data.flags.contains(.backedUp))
    }

    private func checkClientData(_ clientData: CollectedClientData, type: String, challenge: [UInt8]) throws(WebAuthnError) {
        guard clientData.type == type else { throw .mismatch("the client data's type is \(clientData.type.debugDescription), not \(type)") }
        guard ConstantTime.equal(clientData.challenge, challenge) else { throw .mismatch("the client data's challenge is not this ceremony's") }
        guard origins.contains(clientData.origin) else {
            throw .mismatch("the origin \(clientData.origin.debugDescription) is not one of the relying party's")
        }
        guard allowsCrossOrigin || (!clientData.crossOrigin && clientData.topOrigin == nil) else {
            throw .mismatch("the ceremony ran in a cross-origin frame, which the relying party does not allow")
        }
    }

    private func checkFlags(of data: AuthenticatorData, userVerification: UserVerification) throws(WebAuthnError) {
        guard ConstantTime.equal(data.rpIDHash, idHash) else { throw .mismatch("the authenticator data is for another relying party ID") }
        guard data.flags.contains(.userPresent) else { throw .userNotPresent }
        if userVerification == .required && !data.flags.contains(.userVerified) { throw .userNotVerified }
        // Section 6.1.3: a credential that cannot be backed up cannot be backed up.
        if data.flags.contains(.backedUp) && !data.flags.contains(.backupEligible) {
            throw .malformed("the authenticator data says backed up (BS) without backup eligibility (BE)")
        }
    }
}
