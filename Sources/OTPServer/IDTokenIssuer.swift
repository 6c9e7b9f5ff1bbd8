internal import Foundation
internal import OTPSealing
internal import JWTKit
public import OTPAuthentication
internal import Synchronization

/// Signs Firebase-shaped ID tokens (RS256 or ES256, with `kid`) for one project and checks the
/// tokens clients send back.
///
/// It signs with its key set's signing key, in that key's algorithm, and accepts tokens signed by
/// any key of the set, by the `kid` in their header only: a token naming a key the set does not
/// hold is refused, never tried against another key, and so is a token whose `alg` is not the
/// algorithm of the key its `kid` names (JWTKit verifies with the key's own algorithm whatever
/// the header says, so the header would otherwise lie unnoticed). The set can be replaced while
/// the issuer serves (``useKeys(_:)``, ``refreshKeys()``), which is how a running server takes up
/// a rotation.
public final class IDTokenIssuer: Sendable {
    /// The project the tokens are for (`aud`, and the end of `iss`).
    public let projectID: String
    /// How long a token is valid, in seconds (Firebase: one hour).
    public let lifetime: Int64
    let clock: @Sendable () -> Int64
    private let current: Mutex<Keys>
    private let refresh: (@Sendable () async -> IDTokenSigningKeySet?)?
    /// The refresh under way, which a concurrent one joins: `refresh` answers a new set once (the
    /// key file's monitor remembers what it handed out), so a second caller asking while the first
    /// still installs the set would be told nothing changed and miss the new key.
    private let refreshing = Mutex<Task<Bool, Never>?>(nil)
    /// The session-cookie certificates made so far, by key id, with when each was made: a
    /// certificate costs an RSA signature, and the address that publishes them takes requests from
    /// anyone, so each is made once a week per key rather than once per request.
    private let certificates = Mutex<[String: (pem: String, madeAt: Int64)]>([:])
    /// How long a certificate is served before a new one is made (it is valid for two weeks).
    static let certificateReuse: Int64 = 7 * 86_400

    /// One key set, ready to sign and verify with.
    private struct Keys: Sendable {
        let set: IDTokenSigningKeySet
        let collection: JWTKeyCollection

        init(_ set: IDTokenSigningKeySet) async {
            self.set = set
            collection = JWTKeyCollection()
            for key in set.keys {
                let kid = JWKIdentifier(string: key.kid)
                switch key.privateKey {
                case .rsa(let rsa): await collection.add(rsa: rsa, digestAlgorithm: .sha256, kid: kid)
                case .es256(let ecdsa): await collection.add(ecdsa: ecdsa, kid: kid)
                }
            }
            // Without a default key, a token whose kid the set lacks finds no key at all.
            await collection.clearDefault()
        }

        /// The key called `kid`, if the set holds one.
        func key(_ kid: String) -> IDTokenSigningKey? { set.keys.first { $0.kid == kid } }
    }

    /// The issuer of `projectID`'s tokens.
    public var issuer: String { "https://securetoken.google.com/" + projectID }

    /// The keys in use: the signing one, and those only verified and published.
    public var signingKeys: IDTokenSigningKeySet { current.withLock { $0.set } }

    /// An issuer signing with `signingKey` alone; `clock` gives Unix seconds (the system's when `nil`).
    public convenience init(
        projectID: String, signingKey: IDTokenSigningKey, lifetime: Int64 = 3600, clock: (@Sendable () -> Int64)? = nil
    ) async {
        await self.init(projectID: projectID, signingKeys: IDTokenSigningKeySet(signingKey), lifetime: lifetime, clock: clock)
    }

    /// An issuer signing with `signingKeys`' signing key and verifying with all of them.
    ///
    /// - Parameters:
    ///   - projectID: The project the tokens are for.
    ///   - signingKeys: The keys: the set's signing key signs, and every key of it verifies.
    ///   - lifetime: How long a token is valid, in seconds.
    ///   - clock: Unix seconds; the system's when `nil`.
    ///   - refresh: A newer key set, or `nil` when there is none; asked by ``refreshKeys()`` and
    ///     whenever a token names a key the set does not hold.
    public init(
        projectID: String, signingKeys: IDTokenSigningKeySet, lifetime: Int64 = 3600, clock: (@Sendable () -> Int64)? = nil,
        refresh: (@Sendable () async -> IDTokenSigningKeySet?)? = nil
    ) async {
        self.projectID = projectID
        self.lifetime = lifetime
        self.clock = clock ?? { Int64(Date().timeIntervalSince1970) }
        self.refresh = refresh
        current = Mutex(await Keys(signingKeys))
    }

    /// Signs with `signingKeys`' signing key and verifies with all of them from now on.
    public func useKeys(_ signingKeys: IDTokenSigningKeySet) async {
        let keys = await Keys(signingKeys)
        current.withLock { $0 = keys }
    }

    /// Takes up the key set `refresh` answers, if it answers one: whether the keys changed.
    @discardableResult
    public func refreshKeys() async -> Bool {
        guard let refresh else { return false }
        let task = refreshing.withLock { running in
            if let running { return running }
            let task = Task {
                // The lock is held until the task is recorded, so this runs after that.
                defer { self.refreshing.withLock { $0 = nil } }
                guard let keys = await refresh() else { return false }
                await self.useKeys(keys)
                return true
            }
            running = task
            return task
        }
        return await task.value
    }

    /// The claims of a token for `user`, who signed in at `authTime`.
    public func claims(for user: User, authTime: Int64) -> IDTokenClaims {
        let now = clock()
        // Firebase lists the user's address under `email` and number under `phone` whichever
        // provider brought them, and every other provider by the user's id there.
        var identities: [String: [String]] = [:]
        var phoneNumber: String?
        for identity in user.providerData {
            switch identity.providerID {
            case FirstFactorProvider.password.rawValue: break
            case FirstFactorProvider.phone.rawValue: phoneNumber = identity.phoneNumber ?? identity.providerUID
            default: identities[identity.providerID, default: []].append(identity.providerUID)
            }
        }
        if let email = user.email { identities["email"] = [email] }
        if let phoneNumber { identities["phone"] = [phoneNumber] }
        return IDTokenClaims(
            issuer: issuer, audience: projectID, subject: user.uid, userID: user.uid, authTime: authTime, issuedAt: now,
            expiresAt: now + lifetime, email: user.email, emailVerified: user.email == nil ? nil : user.isEmailVerified,
            phoneNumber: phoneNumber, providerID: user.isAnonymous ? FirstFactorProvider.anonymous.rawValue : nil,
            firebase: .init(
                identities: identities, signInProvider: user.providerID, signInSecondFactor: user.signInSecondFactor,
                secondFactorIdentifier: user.secondFactorIdentifier), sessionID: user.sessionID,
            // A session's claims (a custom token's developer claims) win over the account's, as
            // in Firebase's tokens.
            customClaims: CustomClaims.claims(user.customAttributes).merging(CustomClaims.claims(user.sessionClaims)) { _, session in session })
    }

    /// A signed token carrying `claims`.
    public func sign(_ claims: IDTokenClaims) async throws(IDTokenError) -> String {
        let keys = current.withLock { $0 }
        do {
            return try await keys.collection.sign(claims, kid: JWKIdentifier(string: keys.set.signing.kid))
        } catch {
            throw .signingFailed
        }
    }

    /// The claims of `token` when this issuer signed it for its project, with a key it holds, and
    /// it has not expired.
    public func verify(_ token: String) async throws(IDTokenError) -> IDTokenClaims {
        guard let header = Self.header(of: token), let kid = header.kid else { throw .invalid }
        var keys = current.withLock { $0 }
        var key = keys.key(kid)
        if key == nil {
            // Another server sharing the key file may have rotated it and signed with the new key
            // before this one's next periodic look.
            _ = await refreshKeys()
            keys = current.withLock { $0 }
            key = keys.key(kid)
        }
        guard let key else { throw .unknownKey }
        guard header.alg == key.algorithm.rawValue else { throw .invalid }
        let claims: IDTokenClaims
        do {
            claims = try await keys.collection.verify(token, as: IDTokenClaims.self)
        } catch {
            throw .invalid
        }
        guard claims.audience == projectID, claims.issuer == issuer else { throw .wrongProject }
        guard clock() < claims.expiresAt else { throw .expired }
        return claims
    }

    /// The issuer of the project's session cookies (Firebase's).
    public var sessionCookieIssuer: String { "https://session.firebase.google.com/" + projectID }

    /// A session cookie (firebase-admin's `create_session_cookie`) for the user of the verified ID
    /// token `claims`: its claims, issued by ``sessionCookieIssuer`` now for `duration` seconds,
    /// with the sign-in time kept, signed RS256 by the signing key.
    ///
    /// - Throws: ``IDTokenError/sessionCookieNeedsRS256`` when the signing key is not RSA.
    public func sessionCookie(from claims: IDTokenClaims, duration: Int64) async throws(IDTokenError) -> String {
        guard signingKeys.signing.algorithm == .rs256 else { throw .sessionCookieNeedsRS256 }
        var cookie = claims
        let now = clock()
        cookie.issuer = sessionCookieIssuer
        cookie.issuedAt = now
        cookie.expiresAt = now + duration
        return try await sign(cookie)
    }

    /// The certificates session cookies verify with, `{"<kid>": "<PEM>"}` as Google publishes
    /// them at `…/v3/relyingparty/publicKeys`: every kept RSA key's, each in a self-signed
    /// certificate.
    public func sessionCookieCertificatesJSON() throws -> String {
        let now = clock()
        var published: [String: String] = [:]
        for key in signingKeys.keys where key.algorithm == .rs256 {
            let made = certificates.withLock { $0[key.kid] }
            if let made, now - made.madeAt < Self.certificateReuse, now >= made.madeAt {
                published[key.kid] = made.pem
            } else if let pem = try key.certificatePEM(at: now) {
                certificates.withLock { $0[key.kid] = (pem, now) }
                published[key.kid] = pem
            }
        }
        // Keys retired and dropped from the set take their certificates with them.
        certificates.withLock { cache in cache = cache.filter { published[$0.key] != nil } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(published), as: UTF8.self)
    }

    /// The keys session cookies verify with as a JSON Web Key Set (`/v1/sessionCookiePublicKeys`):
    /// every kept RSA key.
    public func sessionCookieKeySetJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let keys = try signingKeys.keys.filter { $0.algorithm == .rs256 }.map { key in try key.jwk }
        return String(decoding: try encoder.encode(JWKS(keys: keys)), as: UTF8.self)
    }

    /// The key set clients verify tokens with (RFC 7517), every kept key, as JSON.
    public func keySetJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let keys = try signingKeys.keys.map { key in try key.jwk }
        return String(decoding: try encoder.encode(JWKS(keys: keys)), as: UTF8.self)
    }

    /// The fields of a token's header that pick the key and must agree with it.
    struct Header: Decodable {
        var kid: String?
        var alg: String?
    }

    /// The header of `token`, read before its signature is checked to pick the key.
    static func header(of token: String) -> Header? {
        guard let end = token.firstIndex(of: "."), let header = Base64URL.decode(token[..<end]) else { return nil }
        return try? JSONDecoder().decode(Header.self, from: Data(header))
    }
}
