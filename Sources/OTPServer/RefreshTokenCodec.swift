internal import OTPCore
internal import OTPSealing

/// Refresh tokens: `otpk1.<session id>.<uid, base64url>.<MAC, base64url>`, opaque to clients.
///
/// Nothing of the token is stored beyond the session it names, which the store already keeps and
/// ends (sign-out, the per-user session cap, account deletion, the session's own lifetimes): the
/// MAC is HMAC-SHA256 under the store's code digest key (`SecretSealer.codeDigest`), so a copy of
/// the database, which holds session ids, still cannot make a token — stronger than a stored hash
/// of a random token, and no new table. A rotated sealing key keeps earlier tokens valid through
/// the previous keys.
struct RefreshTokenCodec: Sendable {
    let keys: SecretSealer
    static let prefix = "otpk1"

    func token(sessionID: String, userID: String) throws(SealingError) -> String {
        let mac = try keys.codeDigest(sessionID, context: Self.context(userID))
        return [Self.prefix, sessionID, Base64URL.encode(Array(userID.utf8)), Base64URL.encode(mac)].joined(separator: ".")
    }

    /// The session and user a token names, when its MAC is one of ours (compared in constant time).
    func open(_ token: String) -> (sessionID: String, userID: String)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.prefix, !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            let userBytes = Base64URL.decode(parts[2]), let mac = Base64URL.decode(parts[3])
        else { return nil }
        let sessionID = String(parts[1])
        let userID = String(decoding: userBytes, as: UTF8.self)
        guard let expected = try? keys.codeDigests(sessionID, context: Self.context(userID)), ConstantTime.contains(expected, mac) else {
            return nil
        }
        return (sessionID, userID)
    }

    static func context(_ userID: String) -> String { "otpkit-server refresh token:" + userID }
}
