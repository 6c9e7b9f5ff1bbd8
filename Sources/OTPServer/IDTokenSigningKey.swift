internal import CryptoExtras
internal import Foundation
internal import OTPSealing
public import JWTKit

/// A key otpkit-server signs ID tokens with, RS256 or ES256 (``IDTokenSigningAlgorithm``), and
/// the key id (`kid`) its tokens and key set name it by.
public struct IDTokenSigningKey: Sendable {
    /// The key id: 16 hex characters drawn from OpenSSL's CSPRNG when the key is made.
    public let kid: String
    /// The private key; it never leaves the process but sealed (``IDTokenKeyFile``).
    public let privateKey: PrivateKey
    /// When a rotation replaced it (Unix seconds): from then on it only verifies and is
    /// published; `nil` for the key that signs.
    public let retiredAt: Int64?

    /// The algorithm the key signs with, which a token it signed must name as its `alg`.
    public var algorithm: IDTokenSigningAlgorithm { privateKey.algorithm }

    /// A key made from its parts.
    public init(kid: String, privateKey: PrivateKey, retiredAt: Int64? = nil) {
        self.kid = kid
        self.privateKey = privateKey
        self.retiredAt = retiredAt
    }

    /// An RS256 key made from its parts.
    public init(kid: String, privateKey: JWTKit.Insecure.RSA.PrivateKey, retiredAt: Int64? = nil) {
        self.init(kid: kid, privateKey: .rsa(privateKey), retiredAt: retiredAt)
    }

    /// A new key for `algorithm` (a 2048-bit RSA key, or a P-256 one) under a new random key id.
    ///
    /// - Throws: ``IDTokenKeyFileError/keyGenerationFailed`` when the system cannot make one.
    public static func generate(algorithm: IDTokenSigningAlgorithm = .rs256) throws(IDTokenKeyFileError) -> IDTokenSigningKey {
        do {
            let key: PrivateKey
            switch algorithm {
            case .rs256: key = .rsa(try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048)))
            case .es256: key = .es256(ES256PrivateKey())
            }
            return IDTokenSigningKey(kid: try RandomToken.hex(byteCount: 8), privateKey: key)
        } catch {
            throw .keyGenerationFailed
        }
    }

    /// This key retired at `time`, or made the signing one again when `time` is `nil`.
    func retired(at time: Int64?) -> IDTokenSigningKey {
        IDTokenSigningKey(kid: kid, privateKey: privateKey, retiredAt: time)
    }

    /// The public key as a JSON Web Key (RFC 7517), as the key set publishes it.
    public var jwk: JWK {
        get throws {
            switch privateKey {
            case .rsa(let key):
                let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
                return JWK.rsa(
                    .rs256, identifier: JWKIdentifier(string: kid), modulus: Base64URL.encode(modulus),
                    exponent: Base64URL.encode(exponent))
            case .es256(let key):
                guard let point = key.publicKey.parameters else { throw IDTokenError.signingFailed }
                return JWK.ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: point.x, y: point.y, curve: .p256)
            }
        }
    }
}
