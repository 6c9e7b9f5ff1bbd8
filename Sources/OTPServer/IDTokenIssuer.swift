internal import Foundation
internal import JWTKit
public import OTPEnrollment

/// Signs Firebase-shaped ID tokens (RS256, with `kid`) for one project and checks the tokens
/// clients send back.
public final class IDTokenIssuer: Sendable {
    /// The project the tokens are for (`aud`, and the end of `iss`).
    public let projectID: String
    /// How long a token is valid, in seconds (Firebase: one hour).
    public let lifetime: Int64
    let signingKey: IDTokenSigningKey
    let keys: JWTKeyCollection
    let clock: @Sendable () -> Int64

    /// The issuer of `projectID`'s tokens.
    public var issuer: String { "https://securetoken.google.com/" + projectID }

    /// An issuer signing with `signingKey`; `clock` gives Unix seconds (the system's when `nil`).
    public init(projectID: String, signingKey: IDTokenSigningKey, lifetime: Int64 = 3600, clock: (@Sendable () -> Int64)? = nil) async {
        self.projectID = projectID
        self.signingKey = signingKey
        self.lifetime = lifetime
        self.clock = clock ?? { Int64(Date().timeIntervalSince1970) }
        self.keys = JWTKeyCollection()
        await keys.add(rsa: signingKey.privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: signingKey.kid))
    }

    /// The claims of a token for `user`, who signed in at `authTime`.
    public func claims(for user: User, authTime: Int64) -> IDTokenClaims {
        let now = clock()
        var identities: [String: [String]] = [:]
        for identity in user.providerData {
            switch identity.providerID {
            case FirstFactorProvider.password.rawValue:
                identities["email", default: []].append(identity.email ?? identity.providerUID)
            case FirstFactorProvider.phone.rawValue:
                identities["phone", default: []].append(identity.phoneNumber ?? identity.providerUID)
            default:
                identities[identity.providerID, default: []].append(identity.providerUID)
            }
        }
        return IDTokenClaims(
            issuer: issuer, audience: projectID, subject: user.uid, userID: user.uid, authTime: authTime, issuedAt: now,
            expiresAt: now + lifetime, email: user.email, emailVerified: user.email == nil ? nil : user.isEmailVerified,
            providerID: user.isAnonymous ? FirstFactorProvider.anonymous.rawValue : nil,
            firebase: .init(
                identities: identities, signInProvider: user.providerID, signInSecondFactor: user.signInSecondFactor,
                secondFactorIdentifier: user.secondFactorIdentifier), sessionID: user.sessionID,
            customClaims: CustomClaims.claims(user.customAttributes))
    }

    /// A signed token carrying `claims`.
    public func sign(_ claims: IDTokenClaims) async throws(IDTokenError) -> String {
        do {
            return try await keys.sign(claims, kid: JWKIdentifier(string: signingKey.kid))
        } catch {
            throw .signingFailed
        }
    }

    /// The claims of `token` when this issuer signed it for its project and it has not expired.
    public func verify(_ token: String) async throws(IDTokenError) -> IDTokenClaims {
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, as: IDTokenClaims.self)
        } catch {
            throw .invalid
        }
        guard claims.audience == projectID, claims.issuer == issuer else { throw .wrongProject }
        guard clock() < claims.expiresAt else { throw .expired }
        return claims
    }

    /// The key set clients verify tokens with (RFC 7517), as JSON.
    public func keySetJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(JWKS(keys: [try signingKey.jwk])), as: UTF8.self)
    }
}
