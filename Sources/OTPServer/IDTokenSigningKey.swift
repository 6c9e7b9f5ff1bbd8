internal import CryptoExtras
internal import Foundation
public import JWTKit

/// The RSA key otpkit-server signs ID tokens with (RS256), and the key id (`kid`) its tokens and
/// key set name it by.
public struct IDTokenSigningKey: Sendable {
    /// The key id: 16 hex characters drawn from OpenSSL's CSPRNG when the key is made.
    public let kid: String
    /// The private key; it never leaves the process but sealed (``IDTokenKeyFile``).
    public let privateKey: JWTKit.Insecure.RSA.PrivateKey
    /// When a rotation replaced it (Unix seconds): from then on it only verifies and is
    /// published; `nil` for the key that signs.
    public let retiredAt: Int64?

    /// A key made from its parts.
    public init(kid: String, privateKey: JWTKit.Insecure.RSA.PrivateKey, retiredAt: Int64? = nil) {
        self.kid = kid
        self.privateKey = privateKey
        self.retiredAt = retiredAt
    }

    /// A new 2048-bit key under a new random key id.
    ///
    /// - Throws: ``IDTokenKeyFileError/keyGenerationFailed`` when the system cannot make one.
    public static func generate() throws(IDTokenKeyFileError) -> IDTokenSigningKey {
        do {
            let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            return IDTokenSigningKey(kid: try RandomToken.hex(byteCount: 8), privateKey: key)
        } catch {
            throw .keyGenerationFailed
        }
    }

    /// The public key as a JSON Web Key (RFC 7517), as the key set publishes it.
    public var jwk: JWK {
        get throws {
            let (modulus, exponent) = try privateKey.publicKey.getKeyPrimitives()
            return JWK.rsa(
                .rs256, identifier: JWKIdentifier(string: kid), modulus: Base64URL.encode(modulus), exponent: Base64URL.encode(exponent))
        }
    }
}
