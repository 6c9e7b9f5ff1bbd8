/// The authenticator data of a registration or an assertion (W3C Web Authentication section 6.1):
/// the relying party's ID hash, the flags, the signature counter, and on registration the
/// attested credential (section 6.5.1).
public struct AuthenticatorData: Sendable, Equatable {
    /// The flags byte (section 6.1, table "flags").
    public struct Flags: OptionSet, Sendable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The credential a registration creates (section 6.5.1).
    public struct AttestedCredential: Sendable, Equatable {
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        /// The COSE_Key as encoded, which is what is stored and later verified with.
        public let publicKey: [UInt8]
    }

    /// The bytes as received: what signatures cover.
    public let raw: [UInt8]
    public let rpIDHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    public let attestedCredential: AttestedCredential?

    /// Section 6.5.1: a credential ID is at most 1023 bytes.
    public static let maximumCredentialIDLength = 1023

    /// Parses `bytes`: 37 bytes and more, the attested credential exactly when flag AT is set, then
    /// exactly one CBOR map of extensions when flag ED is set, and nothing after.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformed("the authenticator data has \(bytes.count) bytes, fewer than 37") }
        raw = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformed("the authenticator data's attested credential is cut short") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength <= Self.maximumCredentialIDLength else {
                throw .malformed("the credential ID has \(idLength) bytes, more than \(Self.maximumCredentialIDLength)")
            }
            guard bytes.count >= offset + idLength else { throw .malformed("the credential ID is cut short") }
            let credentialID = Array(bytes[offset..<offset + idLength])
            offset += idLength
            let keyLength: Int
            do {
                keyLength = try CBOR.decodePrefix(Array(bytes[offset...])).length
            } catch {
                throw .malformed("the credential public key \(error.reason)")
            }
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: Array(bytes[offset..<offset + keyLength]))
            offset += keyLength
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            do throws(CBOR.Malformed) {
                guard case .map = try CBOR.decode(Array(bytes[offset...])) else { throw CBOR.Malformed("is not a map") }
            } catch {
                throw .malformed("the authenticator extensions \(error.reason)")
            }
        } else if offset != bytes.count {
            throw .malformed("the authenticator data has \(bytes.count - offset) bytes after its last field")
        }
    }
}
