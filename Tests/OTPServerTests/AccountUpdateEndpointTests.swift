import Foundation
import OTPServer
import OTPTestUtilities
import Testing

/// `accounts:update` / `setAccountInfo` with the user's ID token, and `accounts:signUp` with one
/// (linking a password), through the built executable (`IDENTITY-TOOLKIT.md` B.2, B.5, C.7).
@Suite struct AccountUpdateEndpointTests {
    typealias Server = ServerProcess

    @Test func aPasswordChangeRevokesEarlierSessionsAndAnswersNewTokens() async throws {
        try await InProcessServer.with { server in
            let (uid, idToken, refreshToken) = try await server.passwordUser("gil@example.com")
            let elsewhere = try await server.post(Server.signInPath, Server.json(["email": "gil@example.com", "password": "long enough"]))
            let otherRefresh = try #require(elsewhere.json["refreshToken"] as? String, "\(elsewhere.body)")

            // iOS's updatePassword: setAccountInfo with returnSecureToken.
            let changed = try await server.updateAccount(idToken, ["password": "a new password"], sdk: .iOS)
            #expect(changed.status == 200, "\(changed.body)")
            #expect(changed.json["localId"] as? String == uid)
            #expect(changed.json["passwordHash"] as? String == "UkVEQUNURUQ=")
            #expect(changed.json["expiresIn"] as? String == "3600")
            let newToken = try #require(changed.json["idToken"] as? String, "\(changed.body)")
            let newRefresh = try #require(changed.json["refreshToken"] as? String)
            #expect(try await server.verifiedClaims(newToken).subject == uid)

            // Both earlier sessions are over; the new one refreshes.
            for stale in [refreshToken, otherRefresh] {
                let refused = try await server.refresh(stale)
                #expect(refused.status == 400)
                #expect(refused.errorMessage?.hasPrefix("TOKEN_EXPIRED : ") == true, "\(refused.body)")
            }
            let oldSession = try await server.updateAccount(idToken, ["displayName": "Gil"])
            #expect(oldSession.errorMessage?.hasPrefix("TOKEN_EXPIRED : ") == true, "\(oldSession.body)")
            let refreshed = try await server.refresh(newRefresh)
            #expect(refreshed.status == 200, "\(refreshed.body)")
            #expect(refreshed.json["user_id"] as? String == uid)

            // Only the new password signs in.
            let oldPassword = try await server.post(Server.signInPath, Server.json(["email": "gil@example.com", "password": "long enough"]))
            #expect(oldPassword.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "\(oldPassword.body)")
            let newPassword = try await server.post(Server.signInPath, Server.json(["email": "gil@example.com", "password": "a new password"]))
            #expect(newPassword.json["localId"] as? String == uid, "\(newPassword.body)")

            // A new address: unverified, new tokens again.
            let moved = try await server.updateAccount(newToken, ["email": "Gilbert@Example.com"])
            #expect(moved.status == 200, "\(moved.body)")
            #expect(moved.json["email"] as? String == "gilbert@example.com" && moved.json["emailVerified"] as? Bool == false)
            let movedToken = try #require(moved.json["idToken"] as? String, "\(moved.body)")
            #expect(try await server.refresh(newRefresh).errorMessage?.hasPrefix("TOKEN_EXPIRED : ") == true)
            #expect(try await server.lookupUser(movedToken)["email"] as? String == "gilbert@example.com")
        }
    }

    @Test func profileChangesKeepTheSessionAndRefusalsWriteNothing() async throws {
        try await InProcessServer.with { server in
            let (_, idToken, refreshToken) = try await server.passwordUser("hal@example.com")
            _ = try await server.passwordUser("ida@example.com")

            let named = try await server.updateAccount(idToken, ["displayName": "Hal", "photoUrl": "https://example.com/hal.png"])
            #expect(named.status == 200, "\(named.body)")
            #expect(named.json["displayName"] as? String == "Hal" && named.json["photoUrl"] as? String == "https://example.com/hal.png")
            #expect(named.json.keys.contains("idToken") == false, "a profile change keeps the session: \(named.body)")
            let removed = try await server.updateAccount(idToken, ["deleteAttribute": ["DISPLAY_NAME"]], sdk: .iOS)
            #expect(removed.status == 200, "\(removed.body)")
            #expect(removed.json.keys.contains("displayName") == false && removed.json["photoUrl"] as? String == "https://example.com/hal.png")

            let refusals: [(fields: [String: Any], code: String)] = [
                (["password": "short"], "WEAK_PASSWORD"),
                (["password": ""], "WEAK_PASSWORD"),
                (["email": "not an address"], "INVALID_EMAIL"),
                (["email": ""], "INVALID_EMAIL"),
                (["email": "ida@example.com", "displayName": "Taken"], "EMAIL_EXISTS"),
                (["customAttributes": #"{"admin":true}"#], "INSUFFICIENT_PERMISSION"),
                (["emailVerified": true], "INSUFFICIENT_PERMISSION"),
                (["disableUser": true], "OPERATION_NOT_ALLOWED"),
                (["deleteAttribute": ["NICKNAME"]], "INVALID_ARGUMENT"),
                (["deleteProvider": ["password"], "password": "another password"], "INVALID_ARGUMENT"),
                (["displayName": 7], "INVALID_ARGUMENT"),
            ]
            for refusal in refusals {
                let answer = try await server.updateAccount(idToken, refusal.fields)
                #expect(answer.status == 400, "\(refusal.fields): \(answer.body)")
                #expect(answer.errorMessage?.hasPrefix(refusal.code + " : ") == true, "\(refusal.fields): \(answer.body)")
            }
            let noToken = try await server.post(Server.updatePath, Server.json(["displayName": "Nobody"]))
            #expect(noToken.errorMessage?.hasPrefix("INVALID_REQ_TYPE : ") == true, "\(noToken.body)")

            // Nothing changed: the address, name and password as they were, the session alive.
            let user = try await server.lookupUser(idToken)
            #expect(user["email"] as? String == "hal@example.com" && user.keys.contains("displayName") == false)
            #expect(try await server.refresh(refreshToken).status == 200)
            let signedIn = try await server.post(Server.signInPath, Server.json(["email": "hal@example.com", "password": "long enough"]))
            #expect(signedIn.status == 200, "\(signedIn.body)")
        }
    }

    @Test func signUpWithAnIDTokenLinksAPasswordAndKeepsTheUID() async throws {
        try await InProcessServer.with { server in
            let anonymous = try await server.post(Server.signUpPath, #"{"returnSecureToken":true}"#)
            let uid = try #require(anonymous.json["localId"] as? String, "\(anonymous.body)")
            let anonymousToken = try #require(anonymous.json["idToken"] as? String)
            #expect(try await server.providerIDs(anonymousToken) == [])

            let missing = try await server.post(Server.signupNewUserPath, Server.json(["idToken": anonymousToken, "email": "jo@example.com"]))
            #expect(missing.errorMessage?.hasPrefix("MISSING_PASSWORD : ") == true, "\(missing.body)")
            let weak = try await server.post(
                Server.signupNewUserPath, Server.json(["idToken": anonymousToken, "email": "jo@example.com", "password": "short"]))
            #expect(weak.errorMessage?.hasPrefix("WEAK_PASSWORD : ") == true, "\(weak.body)")

            // iOS's link(withEmail:password:): signupNewUser with the idToken.
            let linked = try await server.post(
                Server.signupNewUserPath,
                Server.json([
                    "idToken": anonymousToken, "email": "jo@example.com", "password": "long enough", "returnSecureToken": true,
                    "clientType": "CLIENT_TYPE_IOS",
                ]))
            #expect(linked.status == 200, "\(linked.body)")
            #expect(linked.json["localId"] as? String == uid)
            let token = try #require(linked.json["idToken"] as? String, "\(linked.body)")
            #expect(linked.json["refreshToken"] is String)
            #expect(linked.json["expiresIn"] as? String == "3600")
            let claims = try await server.verifiedClaims(token)
            #expect(claims.subject == uid && claims.providerID == nil && claims.firebase.signInProvider == "password")

            let user = try await server.lookupUser(token)
            let entry = try #require((user["providerUserInfo"] as? [[String: Any]])?.first)
            #expect(entry["providerId"] as? String == "password")
            #expect(entry["rawId"] as? String == "jo@example.com" && entry["federatedId"] as? String == "jo@example.com")
            #expect(user["passwordHash"] as? String == "UkVEQUNURUQ=")
            let signedIn = try await server.post(Server.signInPath, Server.json(["email": "jo@example.com", "password": "long enough"]))
            #expect(signedIn.json["localId"] as? String == uid, "\(signedIn.body)")

            // The address is now taken: another user linking it is refused.
            let (_, otherToken, _) = try await server.passwordUser("kim@example.com")
            let anotherAnonymous = try await server.post(Server.signUpPath, "{}")
            let taken = try await server.post(
                Server.signUpPath,
                Server.json([
                    "idToken": try #require(anotherAnonymous.json["idToken"] as? String), "email": "jo@example.com", "password": "long enough",
                ]))
            #expect(taken.errorMessage?.hasPrefix("EMAIL_EXISTS : ") == true, "\(taken.body)")
            let twice = try await server.post(
                Server.signUpPath, Server.json(["idToken": otherToken, "email": "kim2@example.com", "password": "long enough"]))
            #expect(twice.errorMessage?.hasPrefix("PROVIDER_ALREADY_LINKED : ") == true, "\(twice.body)")
        }
    }
}
