internal import Foundation
public import JWTKit
internal import OTPAuthentication
internal import OTPSealing

/// Checks a custom token before `accounts:signInWithCustomToken` signs its user in: what
/// firebase-admin's `create_custom_token` mints, an RS256 JWT signed by a service account the
/// operator trusts (``CustomTokenSigner``), naming it as `iss` and `sub`, for Firebase's
/// ``audience``, living at most ``maximumLifetime`` and not expired.
///
/// Under the emulator it also takes the emulator's unsigned forms (firebase-admin's tokens when
/// `FIREBASE_AUTH_EMULATOR_HOST` is set: `alg: none`, an empty signature; or a JSON object of
/// claims), as Firebase's Auth emulator does; never otherwise.
///
/// Developer claims (`claims`, firebase-admin's `create_custom_token(uid, claims)`) come back with
/// the user's id, held to the rules of the account's own custom claims (a JSON object of at most
/// 1,000 bytes serialized, no name an ID token uses itself), for the session to keep.
public struct CustomTokenVerifier: Sendable {
    /// The audience of custom tokens (firebase-admin's, and Firebase's check).
    public static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// The longest a token may live between `iat` and `exp`, in seconds (firebase-admin's hour).
    public static let maximumLifetime: Int64 = 3600
    /// How far the minting machine's clock may be off, in seconds.
    public static let clockSkew: Int64 = 60

    private let emails: [String: String]
    private let collection: JWTKeyCollection
    private let acceptsUnsigned: Bool
    private let clock: @Sendable () -> Int64

    /// A verifier trusting `signers`, and under the emulator (`acceptsUnsigned`) unsigned tokens
    /// too; `clock` gives the time in Unix seconds.
    /// - Throws: ``CustomTokenSignerError/duplicateKeyID(_:)`` when two signers share a key id.
    public init(signers: [CustomTokenSigner], acceptsUnsigned: Bool, clock: @escaping @Sendable () -> Int64) async throws(CustomTokenSignerError) {
        let collection = JWTKeyCollection()
        var emails: [String: String] = [:]
        for signer in signers {
            for (kid, key) in signer.keys {
                guard emails.updateValue(signer.email, forKey: kid) == nil else { throw .duplicateKeyID(kid) }
                await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            }
        }
        self.emails = emails
        self.collection = collection
        self.acceptsUnsigned = acceptsUnsigned
        self.clock = clock
    }

    /// The user id a valid token names (its `uid`; under the emulator `user_id` too) and its
    /// developer claims.
    /// - Throws: ``CustomTokenError`` saying what is wrong with the token.
    public func verify(_ token: String) async throws(CustomTokenError) -> VerifiedCustomToken {
        let text = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .missing }
        let unsigned: [String: Any]?
        do {
            unsigned = try EmulatorIdentityTokenVerifier.unsignedClaims(text)
        } catch {
            throw .rejected(Self.reason(error))
        }
        if let unsigned {
            guard acceptsUnsigned else {
                throw .rejected("the token is unsigned, which only an emulator accepts: mint it with a service account's key")
            }
            // The JSON form names its user alone; the JWT form names Firebase's audience too.
            if !text.hasPrefix("{") { try Self.checkAudience(unsigned) }
            return try Self.user(unsigned, orUserID: true)
        }
        let claims = try await signedClaims(text)
        return try Self.user(claims, orUserID: false)
    }

    /// The claims of a signed token, once its header, signature, issuer, audience and lifetime hold.
    private func signedClaims(_ token: String) async throws(CustomTokenError) -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]) else {
            throw .rejected("the token is not a JWT of three base64url parts with JSON header and payload")
        }
        guard let algorithm = header["alg"] as? String, algorithm == "RS256" else {
            throw .rejected("the token is signed with \(String(describing: header["alg"] ?? "no algorithm").prefix(20)), not RS256")
        }
        guard let kid = header["kid"] as? String, let email = emails[kid] else {
            throw .rejected("no trusted service account has the token's key id: configure the account that minted it (--custom-token-signer)")
        }
        do {
            _ = try await collection.verify(token, as: SignatureCheck.self)
        } catch {
            throw .rejected("the signature does not verify with key \(kid.prefix(64)) of \(email)")
        }
        guard claims["iss"] as? String == email, claims["sub"] as? String == email else {
            throw .rejected("iss and sub must both be \(email), the service account whose key \(kid.prefix(64)) signed the token")
        }
        try Self.checkAudience(claims)
        guard let issuedAt = Self.seconds(claims["iat"]), let expiresAt = Self.seconds(claims["exp"]) else {
            throw .rejected("iat and exp must be Unix times in seconds")
        }
        guard expiresAt > issuedAt, expiresAt - issuedAt <= Self.maximumLifetime else {
            throw .rejected("exp must be after iat by at most \(Self.maximumLifetime) seconds")
        }
        let now = clock()
        guard issuedAt <= now + Self.clockSkew else { throw .rejected("the token is issued in the future: check the minting machine's clock") }
        guard now <= expiresAt + Self.clockSkew else { throw .rejected("the token expired \(now - expiresAt) seconds ago: mint a new one") }
        return claims
    }

    /// The `uid` (or under the emulator `user_id`) and developer claims of `claims`, once the rest
    /// of them is usable here.
    private static func user(_ claims: [String: Any], orUserID: Bool) throws(CustomTokenError) -> VerifiedCustomToken {
        if claims["tenant_id"] != nil { throw .rejected("this server has no tenants: mint the token without tenant_id") }
        guard let uid = (claims["uid"] ?? (orUserID ? claims["user_id"] : nil)) as? String else {
            throw .rejected("the token names no user: give uid")
        }
        var developerClaims: String?
        if let value = claims["claims"], !(value is NSNull) {
            guard let object = value as? [String: Any],
                let serialized = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { throw .invalidClaims(code: "INVALID_CLAIMS", message: "claims must be a JSON object, such as {\"premium\":true}") }
            do throws(AdminRequestError) {
                if case .set(let kept) = try CustomClaims.change(String(decoding: serialized, as: UTF8.self)) { developerClaims = kept }
            } catch {
                throw .invalidClaims(code: error.code, message: error.message)
            }
        }
        return VerifiedCustomToken(uid: uid, developerClaims: developerClaims)
    }

    private static func checkAudience(_ claims: [String: Any]) throws(CustomTokenError) {
        guard claims["aud"] as? String == audience else {
            throw .rejected("the audience must be \(audience), as firebase-admin mints it")
        }
    }

    private static func object(_ part: Substring) -> [String: Any]? {
        Base64URL.decode(part).flatMap { (try? JSONSerialization.jsonObject(with: Data($0))) as? [String: Any] }
    }

    private static func seconds(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        let seconds = number.doubleValue
        return seconds.isFinite && abs(seconds) < 1e15 ? Int64(seconds) : nil
    }

    private static func reason(_ error: IdentityTokenError) -> String {
        switch error {
        case .rejected(let reason), .keysUnavailable(let reason): reason
        }
    }

    /// What jwt-kit decodes to check the signature; the claims are checked above, against the injected clock.
    private struct SignatureCheck: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}

/// Why ``CustomTokenVerifier`` refused a custom token.
public enum CustomTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No token was given.
    case missing
    /// The token is malformed, unsigned outside the emulator, signed by no trusted key, or its
    /// claims do not hold; the reason says which.
    case rejected(String)
    /// The token's developer claims break the rules of custom claims (`INVALID_CLAIMS`,
    /// `CLAIMS_TOO_LARGE`, `FORBIDDEN_CLAIM`), as the error says.
    case invalidClaims(code: String, message: String)

    public var description: String {
        switch self {
        case .missing: "no custom token given: send the token your backend minted as token"
        case .rejected(let reason): reason
        case .invalidClaims(_, let message): message
        }
    }
}

/// What a valid custom token says: whom to sign in, and the developer claims the session's ID
/// tokens carry.
public struct VerifiedCustomToken: Sendable, Hashable {
    /// The user's id (`uid`).
    public let uid: String
    /// The developer claims, one JSON object serialized with sorted keys; `nil` for none or `{}`.
    public let developerClaims: String?
}
