internal import OTPCore
internal import OTPSealing

/// The server's opaque tokens naming a stored record and its user:
/// `<prefix>.<record id>.<uid, base64url>.<MAC, base64url>`.
///
/// Refresh tokens (`otpk1`) name the sign-in's session; pending credentials (`otpkp1`, Firebase's
/// `mfaPendingCredential`) name the sign-in waiting for its second factor. Nothing of a token is
/// stored beyond the record it names, which the store already keeps and ends (sign-out, the
/// per-user session cap, account deletion, lifetimes, a completed sign-in): the MAC is
/// HMAC-SHA256 under the store's code digest key (`SecretSealer.codeDigest`), so a copy of the
/// database, which holds the ids, still cannot make a token — stronger than a stored hash of a
/// random token, and no new table. Each kind has its own MAC context, so one kind never passes for
/// the other. A rotated sealing key keeps earlier tokens valid through the previous keys.
struct SignedTokenCodec: Sendable {
    let keys: SecretSealer
    let prefix: String
    let context: String

    /// Refresh tokens, naming sessions.
    static func refreshTokens(_ keys: SecretSealer) -> SignedTokenCodec {
        SignedTokenCodec(keys: keys, prefix: "otpk1", context: "otpkit-server refresh token:")
    }

    /// Multi-factor pending credentials, naming pending sign-ins.
    static func pendingCredentials(_ keys: SecretSealer) -> SignedTokenCodec {
        SignedTokenCodec(keys: keys, prefix: "otpkp1", context: "otpkit-server mfa pending credential:")
    }

    func token(recordID: String, userID: String) throws(SealingError) -> String {
        let mac = try keys.codeDigest(recordID, context: context + userID)
        return [prefix, recordID, Base64URL.encode(Array(userID.utf8)), Base64URL.encode(mac)].joined(separator: ".")
    }

    /// The record and user a token names, when its MAC is one of ours (compared in constant time).
    func open(_ token: String) -> (recordID: String, userID: String)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == prefix, !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            let userBytes = Base64URL.decode(parts[2]), let mac = Base64URL.decode(parts[3])
        else { return nil }
        let recordID = String(parts[1])
        let userID = String(decoding: userBytes, as: UTF8.self)
        guard let expected = try? keys.codeDigests(recordID, context: context + userID), ConstantTime.contains(expected, mac) else {
            return nil
        }
        return (recordID, userID)
    }
}
