public import OTPCore

/// Seals and opens enrollment secrets with AES-256-GCM under a keyring: one current key that seals,
/// and previous keys that still open what they sealed, so keys rotate without downtime.
///
/// The enrollment id is the associated data: a sealed secret only opens for the enrollment it was
/// sealed for. To rotate, make the new key current, list the old one as previous, and run
/// ``reseal(_:enrollmentID:)`` over the stored values (a store's re-seal operation does); when no
/// value names the old key any more, drop it.
///
/// Stores share this type (SQLite now, PostgreSQL later), which is why it lives in its own small
/// module rather than in one store: it depends on OTPCore and libcrypto only.
public struct SecretSealer: Sendable {
    /// The key new values are sealed under.
    public let currentKey: SealingKey
    let keys: [SealingKeyID: SealingKey]

    /// Creates a sealer that seals under `current` and also opens values sealed under `previous`.
    /// - Throws: ``SealingError/duplicateKey(_:)`` when a key is listed twice.
    public init(current: SealingKey, previous: [SealingKey] = []) throws(SealingError) {
        var keys = [current.id: current]
        for key in previous {
            guard keys.updateValue(key, forKey: key.id) == nil else { throw .duplicateKey(key.id) }
        }
        currentKey = current
        self.keys = keys
    }

    /// The id of the key new values are sealed under.
    public var currentKeyID: SealingKeyID { currentKey.id }

    /// The ids of every key this sealer can open with.
    public var keyIDs: Set<SealingKeyID> { Set(keys.keys) }

    /// Seals `secret` for the enrollment `enrollmentID` under the current key, with a fresh random nonce.
    public func seal(_ secret: OTPSecret, enrollmentID: String) throws(SealingError) -> SealedSecret {
        try Self.seal(secret, enrollmentID: enrollmentID, key: currentKey)
    }

    /// Opens a value sealed for `enrollmentID` under any key of the keyring.
    /// - Throws: ``SealingError/unknownKey(_:)`` when its key is not in the keyring;
    ///   ``SealingError/authenticationFailed`` when it was altered or sealed for another enrollment.
    public func open(_ sealed: SealedSecret, enrollmentID: String) throws(SealingError) -> OTPSecret {
        guard let key = keys[sealed.keyID] else { throw .unknownKey(sealed.keyID) }
        return try Self.open(sealed, enrollmentID: enrollmentID, key: key)
    }

    /// Re-seals a value under the current key, or returns `nil` when it already is.
    ///
    /// The value is opened first, so a value that fails authentication is reported, not re-sealed.
    public func reseal(_ sealed: SealedSecret, enrollmentID: String) throws(SealingError) -> SealedSecret? {
        guard sealed.keyID != currentKeyID else { return nil }
        return try seal(open(sealed, enrollmentID: enrollmentID), enrollmentID: enrollmentID)
    }
}
