public import Foundation
public import JWTKit

/// A service account whose custom tokens ``CustomTokenVerifier`` trusts: its address, which such a
/// token names as `iss` and `sub`, and its public certificates by key id (the `kid` of the
/// token's header).
///
/// Google publishes a service account's certificates at
/// `https://www.googleapis.com/robot/v1/metadata/x509/<address>` as a JSON object of key ids and
/// PEM certificates; ``init(email:certificatesJSON:)`` reads that document as it is.
public struct CustomTokenSigner: Sendable {
    /// The service account's address.
    public let email: String
    /// Its RSA public keys by key id.
    public let keys: [String: Insecure.RSA.PublicKey]

    /// A signer with its keys.
    public init(email: String, keys: [String: Insecure.RSA.PublicKey]) {
        self.email = email
        self.keys = keys
    }

    /// A signer whose certificates are `certificatesJSON`: `{"<key id>": "-----BEGIN CERTIFICATE-----…", …}`.
    /// - Throws: ``CustomTokenSignerError`` when the document is not such an object, holds no
    ///   certificate, or one is not an RSA certificate in PEM.
    public init(email: String, certificatesJSON: Data) throws(CustomTokenSignerError) {
        guard email.contains("@"), !email.contains(where: \.isWhitespace) else { throw .invalidEmail(email) }
        guard let object = (try? JSONSerialization.jsonObject(with: certificatesJSON)) as? [String: Any] else {
            throw .notACertificateMap("the document is not a JSON object of key ids and PEM certificates")
        }
        var keys: [String: Insecure.RSA.PublicKey] = [:]
        for (kid, value) in object {
            guard let pem = value as? String else { throw .notACertificateMap("the value of key id \(kid) is not a string") }
            do {
                keys[kid] = try Insecure.RSA.PublicKey(certificatePEM: pem)
            } catch {
                throw .unreadableCertificate(kid: kid)
            }
        }
        guard !keys.isEmpty else { throw .notACertificateMap("the document holds no certificate") }
        self.init(email: email, keys: keys)
    }
}

/// Why a ``CustomTokenSigner`` could not be made.
public enum CustomTokenSignerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The service account's address is not one.
    case invalidEmail(String)
    /// The certificates are not a JSON object of key ids and PEM certificates.
    case notACertificateMap(String)
    /// The certificate of key id `kid` is not an RSA certificate in PEM.
    case unreadableCertificate(kid: String)
    /// Two signers have a key of id `kid`.
    case duplicateKeyID(String)

    public var description: String {
        switch self {
        case .invalidEmail(let email):
            "\"\(email.prefix(80))\" is not a service account's address: give the client_email of its key, such as name@project.iam.gserviceaccount.com"
        case .notACertificateMap(let detail):
            "\(detail): give the document Google publishes at https://www.googleapis.com/robot/v1/metadata/x509/<address>"
        case .unreadableCertificate(let kid):
            "the certificate of key id \(kid) is not an RSA certificate in PEM: give the document Google publishes for the service account"
        case .duplicateKeyID(let kid):
            "two service accounts have a key of id \(kid): give each service account once"
        }
    }
}
