import OTPSealing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The client data a browser or platform collected and the authenticator signed over (W3C Web
/// Authentication section 5.8.1): which ceremony, its challenge, and the origin that asked.
public struct CollectedClientData: Sendable, Equatable {
    /// `webauthn.create` or `webauthn.get`.
    public let type: String
    public let challenge: [UInt8]
    public let origin: String
    public let crossOrigin: Bool
    public let topOrigin: String?
    /// The JSON as received, which the authenticator signed the hash of.
    public let json: [UInt8]

    /// Longer than any client data: a browser's is a few hundred bytes.
    public static let maximumLength = 8 * 1024

    /// Parses `clientDataJSON` as UTF-8 JSON (a byte order mark dropped, as UTF-8 decoding does).
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumLength else {
            throw .malformed("the client data has \(bytes.count) bytes, more than \(Self.maximumLength)")
        }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(text))
        } catch {
            throw .malformed("the client data is not JSON with string fields type, challenge and origin")
        }
        guard let challenge = Base64URL.decode(fields.challenge) else {
            throw .malformed("the client data's challenge is not base64url")
        }
        type = fields.type
        self.challenge = challenge
        origin = fields.origin
        crossOrigin = fields.crossOrigin ?? false
        topOrigin = fields.topOrigin
        json = bytes
    }

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }
}
