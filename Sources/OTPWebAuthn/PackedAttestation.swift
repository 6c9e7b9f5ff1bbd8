import SwiftASN1
// The fixed-time policy is SPI: the relying party validates chains at the time its caller's clock
// gives, as everything else in OTPKit that tells time does, not at the system's.
@_spi(FixedExpiryValidationTime) import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `packed` attestation statement format (W3C Web Authentication section 8.2): a signature
/// over the authenticator data and the client data's hash, by the credential's own key (self
/// attestation) or by the first certificate of `x5c`.
enum PackedAttestation {
    /// More than any authenticator's chain (a leaf and an intermediate or two).
    static let maximumCertificates = 5
    /// id-fido-gen-ce-aaguid: the authenticator model in an attestation certificate.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    static func verify(
        _ statement: CBOR, authenticatorData: AuthenticatorData, aaguid: [UInt8], credentialKey: COSEKey, clientDataHash: [UInt8],
        policy: AttestationPolicy, now: Date
    ) async throws(WebAuthnError) -> AttestationTrust {
        guard let algorithm = statement["alg"]?.integer, let signature = statement["sig"]?.bytes else {
            throw .malformed("the packed attestation statement lacks alg (integer) or sig (bytes)")
        }
        let signed = authenticatorData.raw + clientDataHash
        guard let chain = statement["x5c"] else {
            guard algorithm == credentialKey.algorithm.rawValue else {
                throw .mismatch("the self attestation's algorithm \(algorithm) is not the credential's \(credentialKey.algorithm.rawValue)")
            }
            guard credentialKey.isValidSignature(signature, for: signed) else { throw .invalidSignature("the self attestation's signature") }
            return .self
        }
        let certificates = try Self.certificates(chain)
        let leaf = certificates[0]
        guard let key = COSEAlgorithm(rawValue: algorithm).flatMap({ COSEKey(leaf.publicKey, algorithm: $0) }),
            key.isValidSignature(signature, for: signed)
        else {
            throw .invalidSignature("the packed attestation's signature by its certificate")
        }
        try Self.checkRequirements(of: leaf, aaguid: aaguid)
        guard !policy.trustAnchors.isEmpty else { return .uncertain }
        var verifier = Verifier(rootCertificates: CertificateStore(policy.trustAnchors)) { RFC5280Policy(fixedExpiryValidationTime: now) }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate = result else {
            throw .untrustedAttestation("the attestation certificate does not chain to a trusted root at this time")
        }
        return .trusted
    }

    private static func certificates(_ chain: CBOR) throws(WebAuthnError) -> [Certificate] {
        guard case .array(let items) = chain, !items.isEmpty, items.count <= maximumCertificates else {
            throw .malformed("the packed attestation's x5c is not an array of 1 to \(maximumCertificates) certificates")
        }
        var certificates: [Certificate] = []
        for item in items {
            guard let der = item.bytes, let certificate = try? Certificate(derEncoded: der) else {
                throw .malformed("a certificate of the packed attestation's x5c is not DER X.509")
            }
            certificates.append(certificate)
        }
        return certificates
    }

    /// Section 8.2.1: version 3; a subject with C, O, OU "Authenticator Attestation" and CN; not a
    /// certificate authority; an AAGUID extension, when present, not critical and equal to the
    /// authenticator data's.
    private static func checkRequirements(of leaf: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        guard leaf.version == .v3 else { throw .untrustedAttestation("the attestation certificate is not X.509 version 3") }
        var subject: [ASN1ObjectIdentifier: String] = [:]
        for name in leaf.subject {
            for attribute in name { subject[attribute.type] = String(attribute.value) ?? "" }
        }
        let required: [ASN1ObjectIdentifier] = [.RDNAttributeType.countryName, .RDNAttributeType.organizationName, .RDNAttributeType.commonName]
        guard required.allSatisfy({ subject[$0]?.isEmpty == false }),
            subject[.RDNAttributeType.organizationalUnitName] == "Authenticator Attestation"
        else {
            throw .untrustedAttestation("the attestation certificate's subject lacks C, O, CN or OU \"Authenticator Attestation\"")
        }
        let constraints: BasicConstraints?
        do {
            constraints = try leaf.extensions.basicConstraints
        } catch {
            throw .untrustedAttestation("the attestation certificate's basic constraints cannot be read")
        }
        if case .isCertificateAuthority = constraints {
            throw .untrustedAttestation("the attestation certificate is a certificate authority's")
        }
        if let `extension` = leaf.extensions[oid: aaguidExtension] {
            // The extension's value is an OCTET STRING holding the 16 bytes: in DER, 04 10 and them.
            guard !`extension`.critical, Array(`extension`.value) == [0x04, 0x10] + aaguid else {
                throw .untrustedAttestation("the attestation certificate's AAGUID extension is critical or names another authenticator")
            }
        }
    }
}
