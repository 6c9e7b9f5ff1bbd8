/// The keys of one signing key file: the one that signs new ID tokens, and the retired ones kept
/// so that tokens they signed still verify until those tokens have expired. The keys may differ in
/// algorithm: after a rotation from RS256 to ES256 the RSA key verifies until it is dropped.
public struct IDTokenSigningKeySet: Sendable {
    /// Every kept key, the signing one first, then the retired ones from the most recently retired.
    public let keys: [IDTokenSigningKey]

    /// The key new tokens are signed with.
    public var signing: IDTokenSigningKey { keys[0] }

    /// A set whose first key signs.
    ///
    /// - Precondition: `keys` is not empty and no two keys share a `kid`.
    public init(keys: [IDTokenSigningKey]) {
        precondition(!keys.isEmpty, "a signing key set needs a key to sign with")
        precondition(Set(keys.map(\.kid)).count == keys.count, "two signing keys share a kid")
        self.keys = keys
    }

    /// A set of one key, which signs.
    public init(_ key: IDTokenSigningKey) {
        self.init(keys: [key])
    }

    /// This set after a rotation at `now`: `key` signs, the key that signed until now is retired,
    /// and keys retired `retention` seconds or more before `now` are dropped.
    ///
    /// The key retired by this rotation is always kept, whatever `retention` says: it signed
    /// tokens a moment ago.
    public func rotated(to key: IDTokenSigningKey, now: Int64, retention: Int64) -> IDTokenSigningKeySet {
        let kept = keys.dropFirst().filter { ($0.retiredAt ?? now) > now - retention }
        return IDTokenSigningKeySet(keys: [key.retired(at: nil), signing.retired(at: now)] + kept)
    }
}
