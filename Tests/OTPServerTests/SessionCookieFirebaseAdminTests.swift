import Foundation
import OTPTestUtilities
import Testing

/// Session cookies made and verified by firebase-admin-python against the routes served on loopback:
/// `create_session_cookie` through the server, and `verify_session_cookie` outside the emulator,
/// where it checks the signature, the key id and the lifetime against the certificates the server
/// publishes (its `COOKIE_CERT_URI` pointed at the server, since Google's is not this server).
@Suite struct SessionCookieFirebaseAdminTests {
    /// Verifies the cookie `sys.argv[2]` and a tampered copy outside the emulator, with the
    /// certificates at `sys.argv[3]`. The client is made under the emulator (outside it, making
    /// one needs Google credentials), after which the emulator's host is forgotten: from then on
    /// every check runs as in production.
    static let verifyScript = """
        import json, os, sys
        import firebase_admin
        from firebase_admin import _token_gen, auth
        _token_gen.COOKIE_CERT_URI = sys.argv[3]
        firebase_admin.initialize_app(options={"projectId": sys.argv[1]})
        cookie = sys.argv[2]
        auth.verify_session_cookie(cookie)
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        head, payload, signature = cookie.split(".")
        tampered = head + "." + payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
        out = {"uid": auth.verify_session_cookie(cookie)["uid"]}
        try:
            auth.verify_session_cookie(tampered)
            out["tampered"] = "accepted"
        except auth.InvalidSessionCookieError as error:
            out["tampered"] = type(error).__name__
        try:
            auth.verify_id_token(cookie)
            out["asIDToken"] = "accepted"
        except auth.InvalidIdTokenError as error:
            out["asIDToken"] = type(error).__name__
        print(json.dumps(out))
        """

    @Test func firebaseAdminMakesACookieAndVerifiesItsSignatureOutsideTheEmulator() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let (uid, idToken) = try await server.verifiedUser("mia@example.com")
            let made = try await server.firebaseAdmin(
                """
                import datetime
                cookie = auth.create_session_cookie(sys.argv[2], expires_in=datetime.timedelta(days=5))
                print(json.dumps({"cookie": cookie.decode() if isinstance(cookie, bytes) else cookie}))
                """, [idToken])
            let cookie = try #require(made["cookie"] as? String)
            let python = try ExternalTool.debianPython3.path()
            let verified = try await ProcessRunner.run(
                python,
                ["-c", Self.verifyScript, server.projectID, cookie, server.base + "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"],
                environment: ["PYTHONPATH": ServerProcess.firebaseAdminPath, "FIREBASE_AUTH_EMULATOR_HOST": server.hostAndPort])
            try #require(verified.status == 0, "firebase-admin could not verify: \(verified)")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(verified.standardOutput)) as? [String: Any])
            #expect(answer["uid"] as? String == uid)
            #expect(answer["tampered"] as? String == "InvalidSessionCookieError")
            #expect(answer["asIDToken"] as? String == "InvalidIdTokenError")
        }
    }
}
