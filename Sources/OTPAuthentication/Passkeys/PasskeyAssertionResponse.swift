/// An authenticator's answer to ``PasskeyRequestOptions`` (W3C's
/// `AuthenticatorAssertionResponse`), its fields decoded from base64.
public struct PasskeyAssertionResponse: Sendable, Hashable {
    /// The credential's `rawId` (or `id` decoded).
    public var credentialID: [UInt8]
    public var clientDataJSON: [UInt8]
    public var authenticatorData: [UInt8]
    public var signature: [UInt8]
    /// The user handle the authenticator keeps with a discoverable credential; required to sign
    /// in, since the options named no user.
    public var userHandle: [UInt8]?

    public init(credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], userHandle: [UInt8]?) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}
