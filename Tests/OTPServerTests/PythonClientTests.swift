import Foundation
import OTPTestUtilities
import Testing

/// Clients nobody here wrote, against the routes served on loopback: PyJWT (Debian's python3-jwt) checks
/// an issued ID token against the server's key set, and firebase-admin-python (PyPI, installed by
/// `.ci/install`) manages users with `FIREBASE_AUTH_EMULATOR_HOST` pointing at the server.
@Suite struct PythonClientTests {
    /// Fetches the key set (argument 1) with PyJWT's own client, picks the token's key by its kid
    /// and decodes the token (argument 2) for the audience and issuer (arguments 3 and 4).
    static let verifyScript = """
        import json, sys, jwt
        client = jwt.PyJWKClient(sys.argv[1])
        token = sys.argv[2]
        key = client.get_signing_key_from_jwt(token)
        claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=sys.argv[3], issuer=sys.argv[4])
        print(json.dumps({"kid": key.key_id, "header": jwt.get_unverified_header(token), "claims": claims}, sort_keys=True))
        """

    @Test func idTokenVerifiesWithPyJWTAgainstTheKeySet() async throws {
        let python = try ExternalTool.debianPython3.path()
        let probe = try await ProcessRunner.run(python, ["-c", "import jwt, cryptography"])
        try #require(
            probe.status == 0,
            "PyJWT with its RSA support is missing: install the Debian packages python3-jwt and python3-cryptography (bash .ci/install does): \(probe.stderr)"
        )
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let created = try await server.post(
                ClientEndpointTests.signUp, #"{"email":"py@example.com","password":"long enough","returnSecureToken":true}"#)
            let token = try #require(created.json["idToken"] as? String, "\(created.body)")
            let uid = try #require(created.json["localId"] as? String)
            for keySet in ["/.well-known/jwks.json", "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"] {
                let checked = try await ProcessRunner.run(
                    python,
                    ["-c", Self.verifyScript, server.base + keySet, token, server.projectID, "https://securetoken.google.com/" + server.projectID])
                try #require(checked.status == 0, "PyJWT refused the server's token: \(checked)")
                let decoded = try #require(try JSONSerialization.jsonObject(with: Data(checked.standardOutput)) as? [String: Any])
                let header = try #require(decoded["header"] as? [String: Any])
                #expect(header["alg"] as? String == "RS256")
                #expect(header["kid"] as? String == decoded["kid"] as? String)
                let claims = try #require(decoded["claims"] as? [String: Any])
                #expect(claims["sub"] as? String == uid)
                #expect(claims["user_id"] as? String == uid)
                #expect(claims["email"] as? String == "py@example.com")
                #expect(claims["email_verified"] as? Bool == false)
                let iat = try #require(claims["iat"] as? Int)
                #expect(claims["exp"] as? Int == iat + 3600)
                #expect(claims["auth_time"] is Int)
                let firebase = try #require(claims["firebase"] as? [String: Any])
                #expect(firebase["sign_in_provider"] as? String == "password")
                #expect((firebase["identities"] as? [String: [String]])?["email"] == ["py@example.com"])
                #expect(firebase.keys.contains("sign_in_second_factor") == false)
            }
            // PyJWT refuses the token for another project: the check above could fail.
            let foreign = try await ProcessRunner.run(
                python,
                [
                    "-c", Self.verifyScript, server.base + "/.well-known/jwks.json", token, "other-project",
                    "https://securetoken.google.com/other-project",
                ])
            #expect(foreign.status != 0)
        }
    }

    static let adminScript = """
        token = sys.argv[2]
        out = {}
        user = auth.create_user(email="Erin@Example.com", password="erin's password", display_name="Erin")
        out["created"] = user.uid
        got = auth.get_user(user.uid)
        out["get"] = [got.uid, got.email, got.display_name, got.email_verified, got.disabled, [p.provider_id for p in got.provider_data]]
        out["byEmail"] = auth.get_user_by_email("erin@example.com").uid
        try:
            auth.create_user(email="erin@example.com")
            out["duplicateEmail"] = "created"
        except auth.EmailAlreadyExistsError:
            out["duplicateEmail"] = "EmailAlreadyExistsError"
        chosen = auth.create_user(uid="chosen-uid-1", email_verified=True, disabled=True)
        out["chosen"] = [chosen.uid, chosen.email_verified, chosen.disabled]
        try:
            auth.create_user(uid="chosen-uid-1")
            out["duplicateUid"] = "created"
        except auth.UidAlreadyExistsError:
            out["duplicateUid"] = "UidAlreadyExistsError"
        claims = auth.verify_id_token(token)
        out["verified"] = [claims["uid"], claims["firebase"]["sign_in_provider"], claims["email"]]
        auth.delete_user("chosen-uid-1")
        try:
            auth.get_user("chosen-uid-1")
            out["afterDelete"] = "found"
        except auth.UserNotFoundError:
            out["afterDelete"] = "UserNotFoundError"
        try:
            auth.delete_user("chosen-uid-1")
            out["deleteAgain"] = "deleted"
        except auth.UserNotFoundError:
            out["deleteAgain"] = "UserNotFoundError"
        print(json.dumps(out))
        """

    @Test func firebaseAdminManagesUsersAndVerifiesTokens() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let created = try await server.post(
                ClientEndpointTests.signUp, #"{"email":"frank@example.com","password":"long enough","returnSecureToken":true}"#)
            let token = try #require(created.json["idToken"] as? String, "\(created.body)")
            let uid = try #require(created.json["localId"] as? String)
            let out = try await server.firebaseAdmin(Self.adminScript, [token])
            let erin = try #require(out["created"] as? String)
            let got = try #require(out["get"] as? [Any])
            #expect(got[0] as? String == erin)
            #expect(got[1] as? String == "erin@example.com")
            #expect(got[2] as? String == "Erin")
            #expect(got[3] as? Bool == false)
            #expect(got[4] as? Bool == false)
            #expect(got[5] as? [String] == ["password"])
            #expect(out["byEmail"] as? String == erin)
            #expect(out["duplicateEmail"] as? String == "EmailAlreadyExistsError")
            let chosen = try #require(out["chosen"] as? [Any])
            #expect(chosen[0] as? String == "chosen-uid-1")
            #expect(chosen[1] as? Bool == true)
            #expect(chosen[2] as? Bool == true)
            #expect(out["duplicateUid"] as? String == "UidAlreadyExistsError")
            #expect(out["verified"] as? [String] == [uid, "password", "frank@example.com"])
            #expect(out["afterDelete"] as? String == "UserNotFoundError")
            #expect(out["deleteAgain"] as? String == "UserNotFoundError")

            // The user the admin SDK made signs in with the password it set.
            let signedIn = try await server.post(ClientEndpointTests.signIn, #"{"email":"erin@example.com","password":"erin's password"}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.json["localId"] as? String == erin)
        }
    }
}
