import Foundation
import OTPServer
import OTPTestUtilities
import Testing

/// Custom claims through the routes served on loopback: firebase-admin-python's `set_custom_user_claims`
/// read back by `get_user` and by `verify_id_token` on a token refreshed afterwards; raw lookups
/// (admin and client) and sign-in tokens carrying them; each malformed, oversized or reserved
/// claim refused with Firebase's code and nothing written.
@Suite struct CustomClaimsTests {
    static let setScript = """
        uid = sys.argv[2]
        out = {"before": auth.get_user(uid).custom_claims}
        auth.set_custom_user_claims(uid, {"admin": True, "level": 5, "groups": ["ops", "dev"]})
        out["after"] = auth.get_user(uid).custom_claims
        print(json.dumps(out))
        """

    static let verifyScript = """
        claims = auth.verify_id_token(sys.argv[2])
        print(json.dumps({name: claims.get(name) for name in ["admin", "level", "groups", "uid", "iss"]}))
        """

    static let clearScript = """
        auth.set_custom_user_claims(sys.argv[2], None)
        print(json.dumps({"after": auth.get_user(sys.argv[2]).custom_claims}))
        """

    @Test func firebaseAdminSetsClaimsThatLookupsAndLaterTokensCarry() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let (uid, earlier, refreshToken) = try await server.passwordUser("cy@example.com")
            let set = try await server.firebaseAdmin(Self.setScript, [uid])
            #expect(set["before"] is NSNull, "\(set)")
            let after = try #require(set["after"] as? [String: Any], "\(set)")
            #expect(after["admin"] as? Bool == true && after["level"] as? Int == 5 && after["groups"] as? [String] == ["ops", "dev"], "\(after)")

            // A token issued before carries none; one refreshed afterwards carries them, as
            // firebase-admin's verify_id_token reads it.
            #expect(try await server.verifiedClaims(earlier).customClaims.isEmpty)
            let refreshed = try await server.refresh(refreshToken)
            let token = try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)")
            let verified = try await server.firebaseAdmin(Self.verifyScript, [token])
            #expect(verified["admin"] as? Bool == true, "\(verified)")
            #expect(verified["level"] as? Int == 5, "\(verified)")
            #expect(verified["groups"] as? [String] == ["ops", "dev"], "\(verified)")
            #expect(verified["uid"] as? String == uid)
            #expect(verified["iss"] as? String == "https://securetoken.google.com/\(server.projectID)", "Firebase's own claims stay")
            let claims = try await server.verifiedClaims(token)
            #expect(claims.customClaims == ["admin": .bool(true), "level": .integer(5), "groups": .array([.string("ops"), .string("dev")])])
            #expect(claims.subject == uid && claims.firebase.signInProvider == "password")

            // A new sign-in carries them too, and both lookups list them.
            let signedIn = try await server.post(
                ServerProcess.signInPath, #"{"email":"cy@example.com","password":"long enough","returnSecureToken":true}"#)
            let fresh = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            #expect(try await server.verifiedClaims(fresh).customClaims["admin"] == .bool(true))
            for user in [try await server.lookupUser(fresh), try await server.adminUser(uid)] {
                let text = try #require(user["customAttributes"] as? String, "\(user)")
                let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                #expect(parsed?["admin"] as? Bool == true && parsed?["level"] as? Int == 5, "\(text)")
            }

            // Cleared: gone from lookups (the key left out) and from the next token.
            let cleared = try await server.firebaseAdmin(Self.clearScript, [uid])
            #expect(cleared["after"] is NSNull, "\(cleared)")
            #expect(try await server.lookupUser(fresh).keys.contains("customAttributes") == false)
            let again = try await server.refresh(refreshToken)
            #expect(try await server.verifiedClaims(try #require(again.json["id_token"] as? String)).customClaims.isEmpty)
        }
    }

    @Test func badClaimsAreRefusedWithFirebasesCodesAndNothingWritten() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let (uid, idToken, _) = try await server.passwordUser("dee@example.com")
            let kept = #"{"team":"blue"}"#
            let set = try await server.adminUpdate(["localId": uid, "customAttributes": kept])
            try #require(set.status == 200, "\(set.body)")

            var refusals: [(Any, String)] = [
                ("[1,2]", "INVALID_CLAIMS : "), ("not json", "INVALID_CLAIMS : "), (#""text""#, "INVALID_CLAIMS : "), ("null", "INVALID_CLAIMS : "),
                ("42", "INVALID_CLAIMS : "), (#"{"a":1"#, "INVALID_CLAIMS : "), (42, "INVALID_ARGUMENT : "), (["admin": true], "INVALID_ARGUMENT : "),
                (#"{"k":""# + String(repeating: "x", count: 993) + #""}"#, "CLAIMS_TOO_LARGE : "),
                (#"{"k":""# + String(repeating: "é", count: 497) + #""}"#, "CLAIMS_TOO_LARGE : "),
            ]
            for name in [
                "acr", "amr", "at_hash", "aud", "auth_time", "azp", "cnf", "c_hash", "exp", "firebase", "iat", "iss", "jti", "nbf", "nonce", "sub",
            ] {
                refusals.append((#"{"role":"x","\#(name)":1}"#, "FORBIDDEN_CLAIM : \(name) "))
            }
            for (value, expected) in refusals {
                let refused = try await server.adminUpdate(["localId": uid, "displayName": "Changed", "customAttributes": value])
                #expect(refused.status == 400, "\(value): \(refused.body)")
                #expect(refused.errorMessage?.hasPrefix(expected) == true, "\(value): \(refused.body)")
            }
            let user = try await server.adminUser(uid)
            #expect(user["customAttributes"] as? String == kept, "a refused update changed the claims: \(user)")
            #expect(user["displayName"] == nil, "a refused update changed the name")

            // Exactly 1000 bytes is taken; an empty string and an empty object clear.
            let largest = #"{"k":""# + String(repeating: "x", count: 992) + #""}"#
            try #require(largest.utf8.count == 1000)
            #expect(try await server.adminUpdate(["localId": uid, "customAttributes": largest]).status == 200)
            #expect(try await server.adminUser(uid)["customAttributes"] as? String == largest)
            for clearing in ["", "{}"] {
                #expect(try await server.adminUpdate(["localId": uid, "customAttributes": kept]).status == 200)
                #expect(try await server.adminUpdate(["localId": uid, "customAttributes": clearing]).status == 200)
                #expect(try await server.adminUser(uid).keys.contains("customAttributes") == false, "\(clearing) did not clear")
            }

            // A user may not set claims on their own account.
            let own = try await server.updateAccount(idToken, ["customAttributes": kept])
            #expect(own.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION : ") == true, "\(own.body)")
            #expect(try await server.adminUser(uid).keys.contains("customAttributes") == false)
        }
    }
}
