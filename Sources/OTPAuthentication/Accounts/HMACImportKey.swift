internal import OTPCore

/// A key of HMAC password hashes imported from Firebase (`HMAC_MD5`, `HMAC_SHA1`, `HMAC_SHA256`,
/// `HMAC_SHA512`, firebase-admin's `UserImportHash.hmac_*`): the key the source system hashed its
/// users' passwords under. Like a project's scrypt signer key it is the operator's secret, so it is
/// configured, never stored beside the hashes, which name it by ``keyID`` only.
public struct HMACImportKey: Sendable, Hashable {
    /// The hash function of the HMAC.
    public let function: PasswordHasher.DigestHash
    /// The key.
    public let key: [UInt8]

    /// A key of `function`'s HMAC.
    /// - Throws: ``PasswordHashError/unusableImport(_:)`` for an empty key.
    public init(function: PasswordHasher.DigestHash, key: [UInt8]) throws(PasswordHashError) {
        guard !key.isEmpty else { throw .unusableImport("an empty HMAC key") }
        self.function = function
        self.key = key
    }

    /// Firebase's name of the algorithm, `HMAC_SHA256` and the like.
    public var algorithmName: String { "HMAC_" + function.rawValue.uppercased() }

    /// 16 hex digits naming the key (and its function) in stored hashes, without holding it: a MAC
    /// of both under a fixed label.
    public var keyID: String {
        let mac = (Array("\(function.rawValue):".utf8) + key).withUnsafeBytes {
            HMACSHA256.code(key: Array("otpkit hmac import key id".utf8), message: $0)
        }
        return String(Hex.encode(mac).prefix(16))
    }
}
