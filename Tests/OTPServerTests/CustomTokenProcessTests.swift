import Foundation
import OTPTestUtilities
import Testing

/// Custom tokens minted by firebase-admin-python's `create_custom_token`, exchanged at the built
/// `otpkit-server`: RS256 under a service account whose certificates the server is given with
/// `--custom-token-signer` (made by Python's `cryptography`, as Google publishes them), and the
/// emulator's unsigned tokens under `--emulator`.
@Suite struct CustomTokenProcessTests {
    static let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken" + ServerProcess.key

    /// Makes a service account (an RSA key and its self-signed certificate), writes its
    /// certificates as `{kid: PEM}` to `certificates.json` in `sys.argv[1]`, and mints custom
    /// tokens with firebase-admin under its key, as a backend does outside the emulator.
    static let mintScript = """
        import datetime, json, sys
        from cryptography import x509
        from cryptography.x509.oid import NameOID
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import rsa
        import firebase_admin
        from firebase_admin import auth, credentials
        directory, project = sys.argv[1], sys.argv[2]
        email = "minter@" + project + ".iam.gserviceaccount.com"
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, email)])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
        kid = "5f2b6c0d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c"
        with open(directory + "/certificates.json", "w") as file:
            json.dump({kid: certificate.public_bytes(serialization.Encoding.PEM).decode()}, file)
        private_key = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
        firebase_admin.initialize_app(credentials.Certificate({
            "type": "service_account", "project_id": project, "private_key_id": kid, "private_key": private_key,
            "client_email": email, "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token"}))
        def text(token):
            return token.decode() if isinstance(token, bytes) else token
        print(json.dumps({
            "email": email,
            "token": text(auth.create_custom_token("py-user")),
            "withClaims": text(auth.create_custom_token("py-user", {"premium": True})),
        }))
        """

    @Test func firebaseAdminsSignedTokensSignInAtAProductionServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let python = try ExternalTool.debianPython3.path()
        let minted = try await ProcessRunner.run(
            python, ["-c", Self.mintScript, directory.path, "demo-otpkit"], environment: ["PYTHONPATH": ServerProcess.firebaseAdminPath])
        try #require(minted.status == 0, "firebase-admin could not mint: \(minted) (bash .ci/install installs it)")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(minted.standardOutput)) as? [String: Any])
        let email = try #require(tokens["email"] as? String)
        let token = try #require(tokens["token"] as? String)
        let withClaims = try #require(tokens["withClaims"] as? String)
        let signer = "\(email)=\(directory.file("certificates.json"))"
        try await ServerProcess.with(arguments: ["--api-key", "demo-key", "--custom-token-signer", signer], in: directory) { server in
            let signedIn = try await server.post(Self.path, #"{"token":"\#(token)","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.json["isNewUser"] as? Bool == true)
            let claims = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String))
            #expect(claims.subject == "py-user")
            #expect(claims.firebase.signInProvider == "custom")
            // firebase-admin's developer claims: in the ID token, and in the one refreshed from it.
            let premium = try await server.post(Self.path, #"{"token":"\#(withClaims)","returnSecureToken":true}"#)
            let premiumClaims = try await server.verifiedClaims(try #require(premium.json["idToken"] as? String, "\(premium.body)"))
            #expect(premiumClaims.customClaims == ["premium": .bool(true)], "\(premium.body)")
            let refreshed = try await server.refresh(try #require(premium.json["refreshToken"] as? String))
            let refreshedClaims = try await server.verifiedClaims(try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)"))
            #expect(refreshedClaims.customClaims == ["premium": .bool(true)])
        }
        // Without the signer, the same token is refused, naming what to configure.
        try await ServerProcess.with(arguments: ["--api-key", "demo-key"], in: directory) { server in
            let refused = try await server.post(Self.path, #"{"token":"\#(token)"}"#)
            #expect(refused.errorMessage?.contains("--custom-token-signer") == true, "\(refused.body)")
        }
    }

    @Test func theEmulatorTakesFirebaseAdminsUnsignedTokens() async throws {
        try await InProcessServer.with(live: true) { server in
            let minted = try await server.firebaseAdmin(#"print(json.dumps({"token": auth.create_custom_token("emu-user").decode()}))"#)
            let token = try #require(minted["token"] as? String)
            let signedIn = try await server.post(Self.path, #"{"token":"\#(token)","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            // firebase-admin finds the account the sign-in made.
            let found = try await server.firebaseAdmin(#"print(json.dumps({"uid": auth.get_user("emu-user").uid}))"#)
            #expect(found["uid"] as? String == "emu-user")
        }
    }

    @Test func aCertificateFileThatIsNoneStopsTheServerSayingWhy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.file("certificates.json")
        try Data(#"{"kid-1":"not a certificate"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let signer = "minter@demo-otpkit.iam.gserviceaccount.com"
        let run = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            [
                "--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id",
                "demo-otpkit", "--api-key", "k", "--custom-token-signer", "\(signer)=\(file)",
            ], environment: ServerProcess.serverEnvironment([:]))
        // ArgumentParser's usage lines follow the one that says what is wrong.
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        let first = run.stderr.split(separator: "\n").first ?? ""
        #expect(
            first
                == "Error: --custom-token-signer \(signer): \(file): the certificate of key id kid-1 is not an RSA certificate in PEM: give the document Google publishes for the service account",
            "\(run)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("otpkit.sqlite")), "nothing was opened")
    }
}
