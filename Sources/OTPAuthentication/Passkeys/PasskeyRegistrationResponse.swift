/// An authenticator's answer to ``PasskeyCreationOptions`` (W3C's
/// `AuthenticatorAttestationResponse`), its fields decoded from base64.
public struct PasskeyRegistrationResponse: Sendable, Hashable {
    /// The credential's `rawId` (or `id` decoded) when the client sent one: it must be the
    /// attested credential's.
    public var credentialID: [UInt8]?
    public var clientDataJSON: [UInt8]
    public var attestationObject: [UInt8]

    public init(credentialID: [UInt8]?, clientDataJSON: [UInt8], attestationObject: [UInt8]) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }
}
