internal import OTPCore

/// Opaque tokens naming a record and its user, with claims of their own, under a MAC:
/// `<prefix>.<record id>.<uid>[.<claim>]….<MAC>`, every part after the record id base64url.
///
/// The server's refresh tokens (`otpk1`) name the sign-in's session; the multi-factor service's
/// pending credentials (`otpkp2`, Firebase's `mfaPendingCredential`) carry the whole pending
/// sign-in in their claims, so that starting one writes nothing. The MAC is HMAC-SHA256 under the
/// store's code digest key (``SecretSealer/codeDigest(_:context:)``), so a copy of the database,
/// which holds record ids, still cannot make a token; it covers the record id and the claims, and
/// its context ends with the user id. Each kind has its own context, so one kind never passes for
/// the other, and a rotated sealing key keeps earlier tokens valid through the previous keys.
package struct SignedTokenCodec: Sendable {
    let keys: SecretSealer
    let prefix: String
    let context: String

    /// A codec of tokens starting `prefix`, their MACs under `keys` in `context`.
    package init(keys: SecretSealer, prefix: String, context: String) {
        self.keys = keys
        self.prefix = prefix
        self.context = context
    }

    /// The token of `recordID` (letters and digits) of `userID`, carrying `claims`.
    package func token(recordID: String, userID: String, claims: [String] = []) throws(SealingError) -> String {
        let encodedClaims = claims.map { Base64URL.encode(Array($0.utf8)) }
        let mac = try keys.codeDigest(Self.message(recordID, encodedClaims), context: context + userID)
        return ([prefix, recordID, Base64URL.encode(Array(userID.utf8))] + encodedClaims + [Base64URL.encode(mac)]).joined(separator: ".")
    }

    /// The record, user and claims a token names, when it has `claimCount` claims and its MAC is
    /// one of ours (compared in constant time).
    package func open(_ token: String, claimCount: Int = 0) -> (recordID: String, userID: String, claims: [String])? {
        // Split and checked as UTF-8 bytes, not Characters: a server opens a token on every
        // request, and grapheme breaking and Unicode properties were most of what this cost.
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 + claimCount, parts[0].elementsEqual(prefix.utf8), !parts[1].isEmpty,
            parts[1].allSatisfy(Self.isRecordIDByte),
            let userBytes = Base64URL.decode(parts[2]), let mac = Base64URL.decode(parts[parts.count - 1])
        else { return nil }
        let encodedClaims = parts[3..<(parts.count - 1)].map { String(Substring($0)) }
        var claims: [String] = []
        for encoded in encodedClaims {
            guard let bytes = Base64URL.decode(encoded), let claim = String(validating: bytes, as: UTF8.self) else { return nil }
            claims.append(claim)
        }
        let recordID = String(Substring(parts[1]))
        guard let userID = String(validating: userBytes, as: UTF8.self),
            let expected = try? keys.codeDigests(Self.message(recordID, encodedClaims), context: context + userID),
            ConstantTime.contains(expected, mac)
        else { return nil }
        return (recordID, userID, claims)
    }

    /// Record ids are ASCII letters and digits.
    private static func isRecordIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
        default: false
        }
    }

    /// What the MAC covers besides the context: the record id alone when there are no claims, so
    /// tokens made before claims existed still open.
    private static func message(_ recordID: String, _ encodedClaims: [String]) -> String {
        ([recordID] + encodedClaims).joined(separator: ".")
    }
}
