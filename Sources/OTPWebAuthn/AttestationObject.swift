/// The attestation object of a registration (W3C Web Authentication section 6.5.4): a CBOR map of
/// the statement's format, the statement, and the authenticator data.
struct AttestationObject: Sendable {
    let format: String
    let statement: CBOR
    let authenticatorData: AuthenticatorData

    /// Far more than any attestation object: a statement with a chain of a few certificates is a
    /// few kilobytes.
    static let maximumLength = 64 * 1024

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumLength else {
            throw .malformed("the attestation object has \(bytes.count) bytes, more than \(Self.maximumLength)")
        }
        let object: CBOR
        do {
            object = try CBOR.decode(bytes)
        } catch {
            throw .malformed("the attestation object \(error.reason)")
        }
        guard let format = object["fmt"]?.text, let statement = object["attStmt"], case .map = statement,
            let authenticatorData = object["authData"]?.bytes
        else {
            throw .malformed("the attestation object lacks fmt (text), attStmt (map) or authData (bytes)")
        }
        self.format = format
        self.statement = statement
        self.authenticatorData = try AuthenticatorData(authenticatorData)
    }
}
