import Crypto
import CryptoExtras

/// A credential public key in COSE_Key form (RFC 9052 section 7, W3C Web Authentication section
/// 6.5.1.1), checked for a consistent key type, algorithm and curve, and ready to verify.
///
/// swift-crypto does the cryptography: it refuses a P-256 point off the curve, and verifies ECDSA
/// (DER signatures over SHA-256), Ed25519 (the message itself) and RSA PKCS#1 v1.5 with SHA-256.
public struct COSEKey: Sendable {
    public let algorithm: COSEAlgorithm
    let key: Key

    enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// RSA keys shorter than this are refused: swift-crypto's `init(n:e:)` has no floor of its own.
    public static let minimumRSABits = 2048

    init(algorithm: COSEAlgorithm, key: Key) {
        self.algorithm = algorithm
        self.key = key
    }

    /// Parses a COSE_Key as a registration stores it.
    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let map: CBOR
        do {
            map = try CBOR.decode(bytes)
        } catch {
            throw .malformed("the credential public key \(error.reason)")
        }
        guard let keyType = map[label: 1]?.integer, let algorithmValue = map[label: 3]?.integer else {
            throw .malformed("the credential public key lacks its key type (1) or algorithm (3)")
        }
        guard let algorithm = COSEAlgorithm(rawValue: algorithmValue) else {
            throw .unsupported("the credential's algorithm \(algorithmValue) (EdDSA -8, ES256 -7 and RS256 -257 are verified)")
        }
        self.algorithm = algorithm
        switch (algorithm, keyType) {
        case (.es256, 2):
            guard map[label: -1]?.integer == 1, let x = map[label: -2]?.bytes, let y = map[label: -3]?.bytes, x.count == 32, y.count == 32 else {
                throw .malformed("the ES256 key is not a P-256 point (crv 1) with 32-byte x and y")
            }
            do {
                key = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            } catch {
                throw .malformed("the ES256 key's point is not on P-256")
            }
        case (.eddsa, 1):
            guard map[label: -1]?.integer == 6, let x = map[label: -2]?.bytes, x.count == 32 else {
                throw .unsupported("the EdDSA key is not Ed25519 (crv 6) with a 32-byte x")
            }
            do {
                key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw .malformed("the Ed25519 key cannot be read")
            }
        case (.rs256, 3):
            guard let n = map[label: -1]?.bytes, let e = map[label: -2]?.bytes, !n.isEmpty, !e.isEmpty else {
                throw .malformed("the RS256 key lacks its modulus (-1) or exponent (-2)")
            }
            let rsa: _RSA.Signing.PublicKey
            do {
                rsa = try _RSA.Signing.PublicKey(n: n, e: e)
            } catch {
                throw .malformed("the RS256 key cannot be read")
            }
            guard rsa.keySizeInBits >= Self.minimumRSABits else {
                throw .unsupported("an RSA key of \(rsa.keySizeInBits) bits (at least \(Self.minimumRSABits))")
            }
            key = .rsa(rsa)
        default:
            throw .malformed("the key type \(keyType) does not go with the algorithm \(algorithm.rawValue)")
        }
    }

    /// Whether `signature` is this key's signature of `message` with its algorithm.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        switch key {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: message)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        case .rsa(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .insecurePKCS1v1_5)
        }
    }
}
