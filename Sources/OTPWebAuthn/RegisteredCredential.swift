/// What a verified registration yields, and what a relying party stores to verify the
/// credential's assertions later (W3C Web Authentication section 7.1, step 27).
public struct RegisteredCredential: Sendable, Equatable {
    public let id: [UInt8]
    /// The COSE_Key as the authenticator encoded it.
    public let publicKey: [UInt8]
    public let algorithm: COSEAlgorithm
    public let signCount: UInt32
    /// Whether the authenticator verified the user at registration (section 7.1's uvInitialized).
    public let userVerified: Bool
    /// Whether the credential may be backed up (synced between devices): fixed for its lifetime.
    public let backupEligible: Bool
    public let backedUp: Bool
    /// The authenticator model (16 zero bytes when it does not say).
    public let aaguid: [UInt8]
    /// The attestation statement's format as received (`none`, `packed`, …).
    public let attestationFormat: String
    public let attestationTrust: AttestationTrust

    /// A credential as a store keeps it.
    public init(
        id: [UInt8], publicKey: [UInt8], algorithm: COSEAlgorithm, signCount: UInt32, userVerified: Bool, backupEligible: Bool,
        backedUp: Bool, aaguid: [UInt8], attestationFormat: String, attestationTrust: AttestationTrust
    ) {
        self.id = id
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.userVerified = userVerified
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.aaguid = aaguid
        self.attestationFormat = attestationFormat
        self.attestationTrust = attestationTrust
    }
}

/// What a verified assertion changes in the stored credential (section 7.2, steps 22–24).
public struct VerifiedAssertion: Sendable, Equatable {
    public let signCount: UInt32
    public let userVerified: Bool
    public let backedUp: Bool
}
