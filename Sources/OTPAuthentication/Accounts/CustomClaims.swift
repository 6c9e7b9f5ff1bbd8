internal import Foundation
package import OTPCore

/// An administrator's custom claims (`accounts:update` `customAttributes`, firebase-admin's
/// `set_custom_user_claims`, an import's users), checked as Firebase checks them before anything
/// is stored.
package enum CustomClaims {
    /// The longest serialized object taken, in bytes (Firebase's limit).
    package static let maximumBytes = 1000

    /// The names ID tokens use themselves, which custom claims may not take (firebase-admin's
    /// `RESERVED_CLAIMS`, the names the emulator's `FORBIDDEN_CLAIM` refuses).
    package static let reservedNames: Set<String> = [
        "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti", "nbf", "nonce", "sub",
    ]

    /// What `serialized` asks of the account's claims: stored as sent, or removed for `""` and
    /// an empty object (firebase-admin's `set_custom_user_claims(uid, None)` sends `{}`).
    ///
    /// - Throws: `CLAIMS_TOO_LARGE` beyond ``maximumBytes``, `INVALID_CLAIMS` for anything but a
    ///   JSON object, `FORBIDDEN_CLAIM` for a name of ``reservedNames``.
    package static func change(_ serialized: String) throws(AdminRequestError) -> AttributeChange<String> {
        if serialized.isEmpty { return .remove }
        let size = serialized.utf8.count
        guard size <= maximumBytes else {
            throw AdminRequestError(
                "CLAIMS_TOO_LARGE", "custom claims may take \(maximumBytes) bytes serialized, and these take \(size): keep large data elsewhere")
        }
        guard let object = try? JSONDecoder().decode(JSONValue.self, from: Data(serialized.utf8)), case .object(let claims) = object else {
            throw AdminRequestError("INVALID_CLAIMS", "customAttributes must be a JSON object serialized as a string, such as {\"admin\":true}")
        }
        if let reserved = claims.keys.filter(reservedNames.contains).sorted().first {
            throw AdminRequestError("FORBIDDEN_CLAIM", "\(reserved) is a claim name ID tokens use themselves: choose another name")
        }
        return claims.isEmpty ? .remove : .set(serialized)
    }

    /// The claims stored as `serialized`, for an ID token; none when they cannot be read, which
    /// ``change(_:)`` never lets be stored.
    package static func claims(_ serialized: String?) -> [String: JSONValue] {
        guard let serialized, let object = try? JSONDecoder().decode(JSONValue.self, from: Data(serialized.utf8)),
            case .object(let claims) = object
        else { return [:] }
        return claims.filter { !reservedNames.contains($0.key) }
    }
}
