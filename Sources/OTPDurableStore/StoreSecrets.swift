package import OTPCore
package import OTPSealing

/// The sealing glue every durable store shares: how a secret goes into its two columns, and the
/// store's own code digest key.
package enum StoreSecrets {
    /// The record id of the code digest key in the table `store_secrets`.
    package static let codeDigestKeyRecordID = "code-digest-key"

    /// `secret` sealed by `sealer` for the record `recordID`: the bytes for column `sealed_secret`
    /// and the key id for column `key_id`.
    package static func seal(
        _ secret: OTPSecret, recordID: String, with sealer: SecretSealer
    ) throws(SealingError) -> (bytes: [UInt8], keyID: String) {
        let sealed = try sealer.seal(secret, enrollmentID: recordID)
        return (sealed.bytes, sealed.keyID.description)
    }

    /// A fresh code digest key: 32 random bytes, stored sealed when a database is created.
    package static func newCodeDigestKey() throws(OTPError) -> OTPSecret {
        try OTPSecret.random(byteCount: SealingKey.byteCount)
    }

    /// The sealer that digests one-time codes under the store's code digest key `secret`.
    package static func codeDigestSealer(_ secret: OTPSecret) throws(SealingError) -> SecretSealer {
        let key = try secret.withUnsafeBytes { (bytes) throws(SealingError) in try SealingKey(bytes: bytes) }
        return try SecretSealer(current: key)
    }
}
