import Foundation
import JWTKit
import OTPAuthentication
import OTPServer
import Testing

/// `projects/{project}:createSessionCookie` (firebase-admin's `create_session_cookie`) and the
/// keys cookies verify with, as Google publishes them.
@Suite struct SessionCookieRouteTests {
    static let path = "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit:createSessionCookie"
    static let certificatesPath = "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"
    static let keySetPath = "/identitytoolkit.googleapis.com/v1/sessionCookiePublicKeys"
    static let owner = [("Authorization", "Bearer owner")]

    /// `cookie`'s claims, verified with the certificates the server publishes, as firebase-admin reads them.
    static func claimsByCertificate(_ cookie: String, _ server: InProcessServer) async throws -> IDTokenClaims {
        let published = try await server.get(Self.certificatesPath)
        let certificates = try #require(try JSONSerialization.jsonObject(with: Data(published.body.utf8)) as? [String: String], "\(published.body)")
        let keys = JWTKeyCollection()
        for (kid, pem) in certificates {
            await keys.add(rsa: try Insecure.RSA.PublicKey(certificatePEM: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        }
        return try await keys.verify(cookie, as: IDTokenClaims.self)
    }

    @Test func aCookieCarriesTheUserFromTheSignInOnAndVerifiesWithThePublishedKeys() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256) { server in
            let (uid, idToken) = try await server.verifiedUser("ida@example.com")
            let signedInAt = server.clock.now()
            server.clock.advance(by: 120)
            let created = try await server.post(Self.path, #"{"idToken":"\#(idToken)","validDuration":432000}"#, headers: Self.owner)
            #expect(created.status == 200, "\(created.body)")
            let cookie = try #require(created.json["sessionCookie"] as? String)
            let claims = try await Self.claimsByCertificate(cookie, server)
            #expect(claims.issuer == "https://session.firebase.google.com/demo-otpkit")
            #expect(claims.audience == "demo-otpkit")
            #expect(claims.subject == uid)
            #expect(claims.authTime == signedInAt, "the sign-in's time, not the cookie's")
            #expect(claims.issuedAt == signedInAt + 120)
            #expect(claims.expiresAt - claims.issuedAt == 432_000)
            // The same keys as a JSON Web Key Set.
            let keySet = try await server.get(Self.keySetPath)
            let keys = JWTKeyCollection()
            try await keys.add(jwksJSON: keySet.body)
            #expect(try await keys.verify(cookie, as: IDTokenClaims.self).subject == uid)
            // A cookie is no ID token.
            let lookup = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(cookie)"}"#)
            #expect(lookup.errorMessage?.hasPrefix("INVALID_ID_TOKEN") == true, "\(lookup.body)")
        }
    }

    @Test func durationsOutsideFiveMinutesToTwoWeeksAreRefused() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256) { server in
            let (_, idToken) = try await server.verifiedUser("jo@example.com")
            for duration in ["299", "1209601", "-1"] {
                let refused = try await server.post(Self.path, #"{"idToken":"\#(idToken)","validDuration":\#(duration)}"#, headers: Self.owner)
                #expect(refused.errorMessage?.hasPrefix("INVALID_DURATION : ") == true, "\(duration): \(refused.body)")
            }
            let asText = try await server.post(Self.path, #"{"idToken":"\#(idToken)","validDuration":"300"}"#, headers: Self.owner)
            #expect(asText.status == 200, "Google's int64 as a string: \(asText.body)")
            let byDefault = try await server.post(Self.path, #"{"idToken":"\#(idToken)"}"#, headers: Self.owner)
            let claims = try await Self.claimsByCertificate(try #require(byDefault.json["sessionCookie"] as? String), server)
            #expect(claims.expiresAt - claims.issuedAt == 1_209_600, "two weeks when no duration is given")
        }
    }

    @Test func onlyAnAdministratorMakesCookiesOfLiveSessions() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256) { server in
            let (uid, idToken) = try await server.verifiedUser("kai@example.com")
            let anonymous = try await server.post(Self.path, #"{"idToken":"\#(idToken)"}"#)
            #expect(anonymous.status == 401, "\(anonymous.body)")
            let missing = try await server.post(Self.path, #"{"validDuration":600}"#, headers: Self.owner)
            #expect(missing.errorMessage?.hasPrefix("MISSING_ID_TOKEN") == true, "\(missing.body)")
            let garbage = try await server.post(Self.path, #"{"idToken":"not.a.token"}"#, headers: Self.owner)
            #expect(garbage.errorMessage?.hasPrefix("INVALID_ID_TOKEN") == true, "\(garbage.body)")
            // Revoked by an administrator: the token's session has ended.
            _ = try await server.service.administration.updateAccount(id: uid, tokensValidAfter: server.clock.now() + 1)
            server.clock.advance(by: 2)
            let revoked = try await server.post(Self.path, #"{"idToken":"\#(idToken)"}"#, headers: Self.owner)
            #expect(revoked.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true, "\(revoked.body)")
        }
    }

    @Test func anES256ServerSaysHowToMakeCookiesAndPublishesNoCookieKeys() async throws {
        try await InProcessServer.with(signingAlgorithm: .es256) { server in
            let (_, idToken) = try await server.verifiedUser("lou@example.com")
            let refused = try await server.post(Self.path, #"{"idToken":"\#(idToken)"}"#, headers: Self.owner)
            #expect(refused.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : ") == true, "\(refused.body)")
            #expect(refused.errorMessage?.contains("rotate-signing-key --algorithm RS256") == true, "\(refused.body)")
            #expect(try await server.get(Self.certificatesPath).body == "{}")
            #expect(try await server.get(Self.keySetPath).body == #"{"keys":[]}"#)
        }
    }

    @Test func aKeysCertificateIsMadeOnceAWeekNotOnEveryRequest() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256) { server in
            let first = try await server.get(Self.certificatesPath).body
            #expect(try await server.get(Self.certificatesPath).body == first, "the same certificate, not a new signature per request")
            server.clock.advance(by: 6 * 86_400)
            #expect(try await server.get(Self.certificatesPath).body == first)
            server.clock.advance(by: 86_400)
            let renewed = try await server.get(Self.certificatesPath).body
            #expect(renewed != first, "a week on, a new certificate of the same key")
            let kids = { (body: String) in Set(((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: String] ?? [:]).keys) }
            #expect(kids(renewed) == kids(first))
        }
    }
}
