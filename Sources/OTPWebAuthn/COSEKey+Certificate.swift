import Crypto
import CryptoExtras
import X509

extension COSEKey {
    /// An attestation certificate's key, to verify a packed statement's signature made with
    /// `algorithm`; `nil` when the key is not of the algorithm's type.
    init?(_ certificateKey: Certificate.PublicKey, algorithm: COSEAlgorithm) {
        let key: Key
        switch algorithm {
        case .es256:
            guard let p256 = P256.Signing.PublicKey(certificateKey) else { return nil }
            key = .p256(p256)
        case .rs256:
            guard let rsa = _RSA.Signing.PublicKey(certificateKey) else { return nil }
            key = .rsa(rsa)
        case .eddsa:
            guard let ed25519 = Curve25519.Signing.PublicKey(certificateKey) else { return nil }
            key = .ed25519(ed25519)
        }
        self.init(algorithm: algorithm, key: key)
    }
}
