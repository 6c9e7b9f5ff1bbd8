import Foundation
import OTPLoopbackHTTP
import OTPTestUtilities
import Testing

/// Admin `accounts:update` with `deleteProvider` (firebase-admin's `providers_to_delete`, and
/// `phone_number=DELETE_ATTRIBUTE`) for every provider an account has: the password with its
/// address, an identity provider's identity and the phone, each gone from lookups and from
/// sign-in; a provider the account does not have is `NO_SUCH_PROVIDER` and nothing changes.
@Suite struct AdminDeleteProviderTests {
    @Test func thePasswordGoogleAndPhoneAreDeletedAndNoLongerSignIn() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let (uid, idToken, _) = try await server.passwordUser("ada@example.com")
            let linked = try await server.signInWithIdp(try await provider.idToken(subject: "g-ada", email: "ada.g@example.com"), idToken: idToken)
            try #require(linked.status == 200, "\(linked.body)")
            let phone = try await server.adminUpdate(["localId": uid, "phoneNumber": "+12015550123"])
            try #require(phone.status == 200, "\(phone.body)")
            #expect(ServerProcess.providerIDs(try await server.adminUser(uid)) == ["google.com", "password", "phone"])

            // Each bad request is refused before anything is written, the display name of the same request included.
            let refusals: [([String: Any], String)] = [
                (["deleteProvider": ["facebook.com"]], "NO_SUCH_PROVIDER : the account has no facebook.com provider"),
                (["deleteProvider": ["password", "apple.com"]], "NO_SUCH_PROVIDER : the account has no apple.com provider"),
                (["deleteProvider": [""]], "INVALID_ARGUMENT : "),
                (["deleteProvider": "password"], "INVALID_ARGUMENT : "),
                (["deleteProvider": [42]], "INVALID_ARGUMENT : "),
                (["deleteProvider": ["password"], "password": "a new password"], "INVALID_ARGUMENT : "),
                (["deleteProvider": ["password"], "email": "new@example.com"], "INVALID_ARGUMENT : "),
                (["deleteProvider": ["phone"], "phoneNumber": "+12015550124"], "INVALID_ARGUMENT : "),
            ]
            for (fields, expected) in refusals {
                var body = fields
                body["localId"] = uid
                body["displayName"] = "Changed"
                let refused = try await server.adminUpdate(body)
                #expect(refused.status == 400, "\(fields): \(refused.body)")
                #expect(refused.errorMessage?.hasPrefix(expected) == true, "\(fields): \(refused.body)")
            }
            let missing = try await server.adminUpdate(["localId": "no-such-uid", "deleteProvider": ["password"]])
            #expect(missing.errorMessage?.hasPrefix("USER_NOT_FOUND : ") == true, "\(missing.body)")
            var user = try await server.adminUser(uid)
            #expect(ServerProcess.providerIDs(user) == ["google.com", "password", "phone"], "a refused update unlinked a provider")
            #expect(user["displayName"] == nil && user["email"] as? String == "ada@example.com", "a refused update changed the account")

            // The password and Google in one request, as firebase-admin sends providers_to_delete.
            let deleted = try await server.adminUpdate(["localId": uid, "deleteProvider": ["password", "google.com"]])
            #expect(deleted.status == 200, "\(deleted.body)")
            #expect(deleted.json["localId"] as? String == uid)
            user = try await server.adminUser(uid)
            #expect(ServerProcess.providerIDs(user) == ["phone"])
            #expect(user["email"] == nil && user["passwordHash"] == nil, "\(user)")
            #expect(try await server.accountsWithIdentity("google.com", rawID: "g-ada").isEmpty)
            let signIn = try await server.post(
                ServerProcess.signInPath, #"{"email":"ada@example.com","password":"long enough","returnSecureToken":true}"#)
            #expect(signIn.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "the deleted password signed in: \(signIn.body)")
            // The Google identity no longer reaches the account: it makes a new one.
            let google = try await server.signInWithIdp(try await provider.idToken(subject: "g-ada", email: "ada.g@example.com"))
            #expect(google.status == 200, "\(google.body)")
            #expect(google.json["localId"] as? String != uid, "the deleted identity signed in to the account")
            #expect(google.json["isNewUser"] as? Bool == true)

            // The phone, as firebase-admin's phone_number=DELETE_ATTRIBUTE sends it; then nothing is left.
            #expect(try await server.adminUpdate(["localId": uid, "deleteProvider": ["phone"]]).status == 200)
            user = try await server.adminUser(uid)
            #expect(ServerProcess.providerIDs(user) == [] && user["phoneNumber"] == nil, "\(user)")
            let again = try await server.adminUpdate(["localId": uid, "deleteProvider": ["phone"]])
            #expect(again.errorMessage?.hasPrefix("NO_SUCH_PROVIDER : ") == true, "\(again.body)")
        }
    }

    static let deleteScript = """
        uid = auth.create_user(email="bo@example.com", password="bo's password", phone_number="+12015550155").uid
        auth.update_user(uid, providers_to_delete=["password"])
        after = auth.get_user(uid)
        out = {"providers": sorted(p.provider_id for p in after.provider_data), "email": after.email}
        try:
            auth.update_user(uid, providers_to_delete=["google.com"])
            out["unlinked"] = "accepted"
        except firebase_admin.exceptions.FirebaseError as error:
            out["unlinked"] = str(error)
        print(json.dumps(out))
        """

    @Test func firebaseAdminDeletesThePasswordProvider() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let out = try await server.firebaseAdmin(Self.deleteScript)
            #expect(out["providers"] as? [String] == ["phone"], "\(out)")
            #expect(out["email"] is NSNull, "\(out)")
            #expect((out["unlinked"] as? String)?.contains("NO_SUCH_PROVIDER") == true, "\(out)")
        }
    }
}
