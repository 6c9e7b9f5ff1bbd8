public import JWTKit

extension IDTokenSigningKey {
    /// A signing key's private key, of the kind its algorithm needs.
    public enum PrivateKey: Sendable {
        /// A 2048-bit RSA key, which signs RS256.
        case rsa(JWTKit.Insecure.RSA.PrivateKey)
        /// A P-256 key, which signs ES256.
        case es256(ES256PrivateKey)

        /// The algorithm this key signs with.
        public var algorithm: IDTokenSigningAlgorithm {
            switch self {
            case .rsa: .rs256
            case .es256: .es256
            }
        }

        /// The key in PEM, as the key file seals it.
        public var pemRepresentation: String {
            switch self {
            case .rsa(let key): key.pemRepresentation
            case .es256(let key): key.pemRepresentation
            }
        }

        /// The key in `pem`, read as `algorithm` needs it; `nil` when it is no such key.
        static func read(pem: String, algorithm: IDTokenSigningAlgorithm) -> PrivateKey? {
            switch algorithm {
            case .rs256: (try? JWTKit.Insecure.RSA.PrivateKey(pem: pem)).map(PrivateKey.rsa)
            case .es256: (try? ES256PrivateKey(pem: pem)).map(PrivateKey.es256)
            }
        }
    }
}
