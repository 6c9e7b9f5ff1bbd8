import Foundation
import OTPLoopbackHTTP
import OTPServer
import OTPTestUtilities
import Testing

/// `accounts:signInWithIdp` / `verifyAssertion` with tokens of the loopback test identity provider,
/// which the routes verify against its key set (fetched over HTTP): sign-in, link, each refusal,
/// the pending credential of an account with a TOTP factor, unlinking, all in process; and through
/// the built executable, `--identity-provider` and the emulator's unsigned credentials beside it
/// (`IDENTITY-TOOLKIT.md` B.2-B.6, C.5).
@Suite struct IdentityProviderEndpointTests {
    typealias Server = ServerProcess

    @Test func linkGoogleToAPasswordUserThenSignInWithIt() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let (uid, idToken, refreshToken) = try await server.passwordUser("ada@example.com")
            let token = try await provider.idToken(subject: "g-ada", email: "ada.g@example.com", name: "Ada G")

            let linked = try await server.signInWithIdp(token, idToken: idToken)
            #expect(linked.status == 200, "\(linked.body)")
            #expect(linked.json["kind"] as? String == "identitytoolkit#VerifyAssertionResponse")
            #expect(linked.json["providerId"] as? String == "google.com")
            #expect(linked.json["federatedId"] as? String == "https://accounts.google.com/g-ada")
            #expect(linked.json["localId"] as? String == uid)
            #expect(linked.json["isNewUser"] as? Bool == false)
            #expect(linked.json["expiresIn"] as? String == "3600")
            #expect(linked.json["displayName"] as? String == "Ada G")
            let rawUserInfo = try #require(linked.json["rawUserInfo"] as? String)
            #expect(rawUserInfo.contains(#""sub":"g-ada""#), "\(rawUserInfo)")
            let linkedToken = try #require(linked.json["idToken"] as? String, "\(linked.body)")
            #expect(linked.json["refreshToken"] is String)
            #expect(linked.json.keys.contains("mfaPendingCredential") == false)

            // The account lists both providers; the Google entry carries the provider's uid.
            let user = try await server.lookupUser(linkedToken)
            let entries = try #require(user["providerUserInfo"] as? [[String: Any]])
            #expect(entries.compactMap { $0["providerId"] as? String }.sorted() == ["google.com", "password"])
            let google = try #require(entries.first { $0["providerId"] as? String == "google.com" })
            #expect(google["rawId"] as? String == "g-ada" && google["federatedId"] as? String == "g-ada")
            let password = try #require(entries.first { $0["providerId"] as? String == "password" })
            #expect(password["rawId"] as? String == "ada@example.com" && password["email"] as? String == "ada@example.com")
            #expect(user["email"] as? String == "ada@example.com", "the account keeps its own address")
            // A second Google identity on the same account is refused (E.17), and not linked.
            let second = try await server.signInWithIdp(try await provider.idToken(subject: "g-ada-2", email: nil), idToken: linkedToken)
            #expect(second.errorMessage?.hasPrefix("PROVIDER_ALREADY_LINKED : ") == true, "\(second.body)")
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-ada-2").isEmpty)
            // The link replaced the session: its refresh token is refused.
            let stale = try await server.refresh(refreshToken)
            #expect(stale.errorMessage?.hasPrefix("TOKEN_EXPIRED : ") == true, "\(stale.body)")

            // Signing in with the identity, as iOS sends it: the same account, verified through the key set.
            let again = try await server.signInWithIdp(try await provider.idToken(subject: "g-ada", email: "ada.g@example.com"), sdk: .iOS)
            #expect(again.status == 200, "\(again.body)")
            #expect(again.json["localId"] as? String == uid)
            #expect(again.json["isNewUser"] as? Bool == false)
            let claims = try await server.verifiedClaims(try #require(again.json["idToken"] as? String))
            #expect(claims.subject == uid)
            #expect(claims.firebase.signInProvider == "google.com")
            #expect(claims.firebase.identities["google.com"] == ["g-ada"])
            #expect(claims.firebase.signInSecondFactor == nil)

            // A new identity makes a new account, with the address the provider vouches for.
            let fresh = try await server.signInWithIdp(try await provider.idToken(subject: "g-new", email: "New@Example.com"))
            #expect(fresh.status == 200, "\(fresh.body)")
            #expect(fresh.json["isNewUser"] as? Bool == true)
            let freshUID = try #require(fresh.json["localId"] as? String)
            #expect(freshUID != uid)
            let freshUser = try await server.lookupUser(try #require(fresh.json["idToken"] as? String))
            #expect(freshUser["email"] as? String == "new@example.com" && freshUser["emailVerified"] as? Bool == true)
        }
    }

    @Test func anIdentityLinkedElsewhereIsRefusedAndNothingIsWritten() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let owner = try await server.signInWithIdp(try await provider.idToken(subject: "g-bob", email: "bob@example.com"))
            let ownerUID = try #require(owner.json["localId"] as? String, "\(owner.body)")
            let (otherUID, otherToken, _) = try await server.passwordUser("carol@example.com")

            // JS: HTTP 400.
            let refused = try await server.signInWithIdp(
                try await provider.idToken(subject: "g-bob", email: "bob@example.com"), idToken: otherToken)
            #expect(refused.status == 400)
            #expect(refused.errorMessage?.hasPrefix("FEDERATED_USER_ID_ALREADY_LINKED : ") == true, "\(refused.body)")
            // iOS asks for the credential back: HTTP 200 with errorMessage, the credential, and no account or tokens.
            let iOS = try await server.signInWithIdp(
                try await provider.idToken(subject: "g-bob", email: "bob@example.com"), idToken: otherToken, sdk: .iOS)
            #expect(iOS.status == 200, "\(iOS.body)")
            #expect(iOS.json["errorMessage"] as? String == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(iOS.json["providerId"] as? String == "google.com")
            #expect(iOS.json["oauthIdToken"] is String)
            for key in ["localId", "idToken", "refreshToken"] { #expect(iOS.json.keys.contains(key) == false, "\(key): \(iOS.body)") }

            // Nothing was written: the other user still has its password only and its session, and
            // the identity still belongs to its owner alone.
            #expect(try await server.providerIDs(otherToken) == ["password"])
            let holders = try await server.accountsWithIdentity("google.com", rawID: "g-bob")
            #expect(holders.compactMap { $0["localId"] as? String } == [ownerUID])
            #expect(ownerUID != otherUID)

            // An identity whose verified address is another account's: EMAIL_EXISTS for an account
            // that would take the address (an anonymous one).
            let anonymous = try await server.post(Server.signUpPath, #"{"returnSecureToken":true}"#)
            let anonymousToken = try #require(anonymous.json["idToken"] as? String, "\(anonymous.body)")
            let taken = try await server.signInWithIdp(
                try await provider.idToken(subject: "g-carol", email: "carol@example.com"), idToken: anonymousToken)
            #expect(taken.errorMessage?.hasPrefix("EMAIL_EXISTS : ") == true, "\(taken.body)")
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-carol").isEmpty)

            // A sign-in (no idToken) whose verified address is an account's that proved it:
            // needConfirmation, no tokens. (An account that never proved it is the owner's to
            // take: AccountSquattingTests.)
            let verified = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:update",
                Server.json(["localId": otherUID, "emailVerified": true]), headers: [("Authorization", "Bearer owner")])
            #expect(verified.status == 200, "\(verified.body)")
            let confirm = try await server.signInWithIdp(try await provider.idToken(subject: "g-carol", email: "carol@example.com"))
            #expect(confirm.status == 200, "\(confirm.body)")
            #expect(confirm.json["needConfirmation"] as? Bool == true)
            #expect(confirm.json["email"] as? String == "carol@example.com")
            #expect(confirm.json.keys.contains("idToken") == false)
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-carol").isEmpty)

            // A disabled user cannot link.
            let disabled = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:update",
                Server.json(["localId": otherUID, "disableUser": true]), headers: [("Authorization", "Bearer owner")])
            try #require(disabled.status == 200, "\(disabled.body)")
            let refusedDisabled = try await server.signInWithIdp(try await provider.idToken(subject: "g-dan", email: nil), idToken: otherToken)
            #expect(refusedDisabled.errorMessage?.hasPrefix("USER_DISABLED : ") == true, "\(refusedDisabled.body)")
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-dan").isEmpty)

            // A disabled account does not sign in with its identity either.
            let disableOwner = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:update",
                Server.json(["localId": ownerUID, "disableUser": true]), headers: [("Authorization", "Bearer owner")])
            try #require(disableOwner.status == 200, "\(disableOwner.body)")
            let ownerSignIn = try await server.signInWithIdp(try await provider.idToken(subject: "g-bob", email: "bob@example.com"), sdk: .iOS)
            #expect(ownerSignIn.status == 400)
            #expect(ownerSignIn.errorMessage?.hasPrefix("USER_DISABLED : ") == true, "\(ownerSignIn.body)")
        }
    }

    @Test func anAccountWithATOTPFactorAnswersAPendingCredentialToItsLinkedIdentity() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let (uid, idToken) = try await server.verifiedUser("tina@example.com")
            let info = try await server.startTOTPEnrollment(idToken)
            let key = try #require(info["sharedSecretKey"] as? String)
            let sessionInfo = try #require(info["sessionInfo"] as? String)
            let step = TOTPCodes.step
            let code = try TOTPCodes.code(key, step: step)
            #expect(try await ExternalTool.oathtoolCodes(base32: key, from: step * 30, through: step * 30) == [code])
            let enrolled = try await server.post(
                Server.v2("mfaEnrollment:finalize"),
                Server.json(["idToken": idToken, "totpVerificationInfo": ["sessionInfo": sessionInfo, "verificationCode": code]]))
            let enrolledToken = try #require(enrolled.json["idToken"] as? String, "\(enrolled.body)")
            let enrollmentID = try #require(try await server.mfaInfo(enrolledToken)?.first?["mfaEnrollmentId"] as? String)

            // Linking with a valid ID token of a session that passed the second factor is not challenged again.
            let linked = try await server.signInWithIdp(
                try await provider.idToken(subject: "g-tina", email: "tina@example.com"), idToken: enrolledToken)
            #expect(linked.status == 200, "\(linked.body)")
            #expect(linked.json.keys.contains("mfaPendingCredential") == false)
            let linkedClaims = try await server.verifiedClaims(try #require(linked.json["idToken"] as? String, "\(linked.body)"))
            #expect(linkedClaims.subject == uid && linkedClaims.firebase.identities["google.com"] == ["g-tina"])

            // Signing in with the identity alone: a pending credential and the hint, no tokens.
            let first = try await server.signInWithIdp(try await provider.idToken(subject: "g-tina", email: "tina@example.com"))
            #expect(first.status == 200, "\(first.body)")
            #expect(first.json.keys.contains("idToken") == false && first.json.keys.contains("refreshToken") == false)
            #expect(first.json["localId"] as? String == uid)
            #expect(first.json["providerId"] as? String == "google.com")
            let pending = try #require(first.json["mfaPendingCredential"] as? String)
            let hints = try #require(first.json["mfaInfo"] as? [[String: Any]])
            #expect(hints.count == 1 && hints.first?["mfaEnrollmentId"] as? String == enrollmentID && hints.first?["totpInfo"] is [String: Any])

            let next = try TOTPCodes.code(key, step: step + 1)
            #expect(try await ExternalTool.oathtoolCodes(base32: key, from: (step + 1) * 30, through: (step + 1) * 30) == [next])
            let finalized = try await server.post(
                Server.v2("mfaSignIn:finalize"),
                Server.json(["mfaPendingCredential": pending, "mfaEnrollmentId": enrollmentID, "totpVerificationInfo": ["verificationCode": next]]))
            #expect(finalized.status == 200, "\(finalized.body)")
            let claims = try await server.verifiedClaims(try #require(finalized.json["idToken"] as? String, "\(finalized.body)"))
            #expect(claims.subject == uid)
            #expect(claims.firebase.signInProvider == "google.com")
            #expect(claims.firebase.signInSecondFactor == "totp")
            #expect(claims.firebase.secondFactorIdentifier == enrollmentID)
        }
    }

    @Test func unlinkingMakesTheIdentityStopSigningInToTheAccount() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let (uid, idToken, _) = try await server.passwordUser("eve@example.com")
            let linked = try await server.signInWithIdp(try await provider.idToken(subject: "g-eve", email: "eve.g@example.com"), idToken: idToken)
            let linkedToken = try #require(linked.json["idToken"] as? String, "\(linked.body)")
            #expect(try await server.providerIDs(linkedToken) == ["google.com", "password"])

            // JS's unlink: deleteProvider, providerUserInfo in the answer; a provider the user lacks is ignored.
            let unlinked = try await server.updateAccount(linkedToken, ["deleteProvider": ["google.com", "facebook.com"]])
            #expect(unlinked.status == 200, "\(unlinked.body)")
            #expect(unlinked.json["kind"] as? String == "identitytoolkit#SetAccountInfoResponse")
            let entries = try #require(unlinked.json["providerUserInfo"] as? [[String: Any]])
            #expect(entries.compactMap { $0["providerId"] as? String } == ["password"])
            #expect(unlinked.json.keys.contains("idToken") == false, "unlinking keeps the session: \(unlinked.body)")
            #expect(try await server.providerIDs(linkedToken) == ["password"])
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-eve").isEmpty)

            // The identity now signs in to an account of its own, not to this one.
            let after = try await server.signInWithIdp(try await provider.idToken(subject: "g-eve", email: "eve.g@example.com"), sdk: .iOS)
            #expect(after.status == 200, "\(after.body)")
            #expect(after.json["isNewUser"] as? Bool == true)
            #expect(after.json["localId"] as? String != uid)

            // iOS's unlink of password: setAccountInfo; the address goes with it (B.3).
            let noPassword = try await server.updateAccount(linkedToken, ["deleteProvider": ["password"]], sdk: .iOS)
            #expect(noPassword.status == 200, "\(noPassword.body)")
            #expect((noPassword.json["providerUserInfo"] as? [Any])?.isEmpty == true, "\(noPassword.body)")
            #expect(noPassword.json.keys.contains("email") == false && noPassword.json.keys.contains("passwordHash") == false)
            let passwordSignIn = try await server.post(Server.signInPath, Server.json(["email": "eve@example.com", "password": "long enough"]))
            #expect(passwordSignIn.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "\(passwordSignIn.body)")
        }
    }

    @Test func malformedIdentityProviderOptionsStopTheServerAtStart() async throws {
        try await ServerProcess.expectRefusedAtStart([
            (["--identity-provider", "oidc.example=client-1"], "oidc.example=CLIENT_ID,ISSUER_URL,JWKS_URL_OR_FILE"),
            (["--identity-provider", "google.com"], "--identity-provider takes"),
            (["--identity-provider", "oidc.example=client-1,https://issuer.example,http://keys.example/jwks"], "--identity-provider oidc.example:"),
            (["--identity-provider", "google.com=a", "--identity-provider", "Google.com=b"], "google.com is given twice"),
        ])
    }

    @Test func forgedExpiredAndMisaddressedTokensAreRefused() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let (_, idToken, _) = try await server.passwordUser("fay@example.com")
            let stranger = try TestIdentityProvider.SigningKey.generate(kid: provider.currentKey.kid)
            let now = Date().timeIntervalSince1970.rounded(.down)
            let refusals: [(String, String)] = [
                ("signed by another key under the provider's kid", try await provider.idToken(subject: "g-fay", signingKey: stranger.privateKey)),
                ("expired an hour ago", try await provider.idToken(subject: "g-fay", issuedAt: now - 7200, expiresIn: 3600)),
                ("issued to another client", try await provider.idToken(subject: "g-fay", audience: "someone-else.apps.example")),
                ("from another issuer", try await provider.idToken(subject: "g-fay", issuer: "https://accounts.google.com")),
                ("unsigned, with a sub that is no string", try Self.unsignedJWT(["sub": 42])),
            ]
            for (why, token) in refusals {
                for link in [nil, idToken] {
                    let answer = try await server.signInWithIdp(token, idToken: link)
                    #expect(answer.status == 400, "\(why): \(answer.body)")
                    #expect(answer.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true, "\(why): \(answer.body)")
                    #expect(answer.body.contains(token) == false, "\(why): the error repeats the token")
                }
            }
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-fay").isEmpty)
            #expect(try await server.providerIDs(idToken) == ["password"])

            // Missing and malformed requests: the documented codes, never a 500.
            let noURI = try await server.post(Server.signInWithIdpPath, Server.json(["postBody": "id_token=x&providerId=google.com"]))
            #expect(noURI.errorMessage?.hasPrefix("MISSING_REQUEST_URI : ") == true, "\(noURI.body)")
            for postBody in [nil, "", "providerId=google.com", "id_token=abc", "id_token=%zz&providerId=google.com"] {
                var fields: [String: Any] = ["requestUri": "http://localhost", "returnSecureToken": true]
                if let postBody { fields["postBody"] = postBody }
                let answer = try await server.post(Server.signInWithIdpPath, Server.json(fields))
                #expect(answer.status == 400, "\(String(describing: postBody)): \(answer.body)")
                #expect(answer.errorMessage?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID : ") == true, "\(answer.body)")
            }
            let accessOnly = try await server.post(
                Server.signInWithIdpPath, Server.json(["requestUri": "http://localhost", "postBody": "access_token=ya29.x&providerId=google.com"]))
            #expect(accessOnly.status == 400 && accessOnly.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(accessOnly.body)")
            let unknown = try await server.signInWithIdp(try await provider.idToken(subject: "g-fay"), providerID: "facebook.com")
            #expect(unknown.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : ") == true, "\(unknown.body)")
            let wrongType = try await server.post(Server.signInWithIdpPath, #"{"requestUri":"http://localhost","postBody":7}"#)
            #expect(wrongType.errorMessage?.hasPrefix("INVALID_ARGUMENT : ") == true, "\(wrongType.body)")
            let badSession = try await server.signInWithIdp(try await provider.idToken(subject: "g-fay"), idToken: "not-a-token")
            #expect(badSession.errorMessage?.hasPrefix("INVALID_ID_TOKEN : ") == true, "\(badSession.body)")
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-fay").isEmpty)
        }
    }

    @Test func theEmulatorsUnsignedCredentialsOnlyUnderTheEmulator() async throws {
        let claims: [String: Any] = ["sub": "emu-1", "email": "emu@example.com", "email_verified": true, "name": "Emu"]
        let json = Server.json(claims)
        let unsigned = try Self.unsignedJWT(["sub": "emu-2", "email": "emu2@example.com"])
        try await Server.withIdentityProvider(emulator: true) { server, provider in
            let viaJSON = try await server.signInWithIdp(json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            #expect(viaJSON.status == 200, "\(viaJSON.body)")
            #expect(viaJSON.json["isNewUser"] as? Bool == true)
            #expect(viaJSON.json["federatedId"] as? String == "https://accounts.google.com/emu-1")
            let user = try await server.lookupUser(try #require(viaJSON.json["idToken"] as? String))
            #expect(user["email"] as? String == "emu@example.com" && user["displayName"] as? String == "Emu")
            let viaJWT = try await server.signInWithIdp(unsigned, providerID: "apple.com")
            #expect(viaJWT.status == 200, "\(viaJWT.body)")
            #expect(viaJWT.json["providerId"] as? String == "apple.com" && viaJWT.json["federatedId"] as? String == "emu-2")
            // A numeric sub is not the emulator's form either.
            let numeric = try await server.signInWithIdp(try Self.unsignedJWT(["sub": 7]))
            #expect(numeric.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true, "\(numeric.body)")
            // Signed tokens are still checked against the provider's keys.
            let real = try await server.signInWithIdp(try await provider.idToken(subject: "g-real", email: nil))
            #expect(real.status == 200, "\(real.body)")
        }
        try await Server.withIdentityProvider(emulator: false) { server, provider in
            for token in [json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "", unsigned] {
                let refused = try await server.signInWithIdp(token)
                #expect(refused.status == 400, "\(refused.body)")
                #expect(refused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true, "\(refused.body)")
            }
            let apple = try await server.signInWithIdp(unsigned, providerID: "apple.com")
            #expect(apple.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED : ") == true, "\(apple.body)")
            let real = try await server.signInWithIdp(try await provider.idToken(subject: "g-real", email: nil))
            #expect(real.status == 200, "\(real.body)")
            #expect(real.json["isNewUser"] as? Bool == true)
        }
    }

    /// A JWT with `alg: none` and an empty signature, as the emulator's tests make them.
    static func unsignedJWT(_ claims: [String: Any]) throws -> String {
        let header = TestIdentityProvider.base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let payload = TestIdentityProvider.base64URL(try JSONSerialization.data(withJSONObject: claims))
        return header + "." + payload + "."
    }
}
