internal import CryptoExtras
internal import Foundation
internal import X509

extension IDTokenSigningKey {
    /// The public key in a self-signed X.509 certificate, PEM, valid from a day before `now` to
    /// two weeks after it: the form in which Google publishes the keys of session cookies, and the
    /// one firebase-admin's `verify_session_cookie` reads. `nil` for a key that is not RSA, which
    /// firebase-admin does not take for cookies.
    func certificatePEM(at now: Int64) throws -> String? {
        guard case .rsa(let key) = privateKey else { return nil }
        // jwt-kit does not hand out its key's backing; its PEM does.
        let rsa = try _RSA.Signing.PrivateKey(pemRepresentation: key.pemRepresentation)
        let name = try DistinguishedName { CommonName("otpkit-server session cookie key \(kid)") }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(rsa.publicKey),
            notValidBefore: Date(timeIntervalSince1970: TimeInterval(now - 86_400)),
            notValidAfter: Date(timeIntervalSince1970: TimeInterval(now + 14 * 86_400)), issuer: name, subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions(), issuerPrivateKey: Certificate.PrivateKey(rsa))
        return try certificate.serializeAsPEM().pemString
    }
}
