import Foundation
import OTPAuthentication
import OTPFederation
import OTPLoopbackHTTP
import OTPTestUtilities
import Testing

/// Both directions against PyJWT (Debian's python3-jwt), a JOSE implementation nobody here wrote:
/// its tokens pass the verifier, and the test provider's tokens pass PyJWT, so neither side only
/// agrees with itself.
@Suite struct PyJWTCrossCheckTests {
    /// Signs the claims (JSON, argument 2) with the PEM private key in the file (argument 1) under
    /// the key id (argument 3), RS256.
    private static let signScript = """
        import json, sys, jwt
        key = open(sys.argv[1]).read()
        claims = json.loads(sys.argv[2])
        print(jwt.encode(claims, key, algorithm="RS256", headers={"kid": sys.argv[3]}))
        """

    /// Fetches the key set (argument 1) with PyJWT's own JWKS client, picks the token's key by its
    /// kid and decodes the token (argument 2) for the audience and issuer (arguments 3 and 4).
    private static let verifyScript = """
        import json, sys, jwt
        client = jwt.PyJWKClient(sys.argv[1])
        token = sys.argv[2]
        key = client.get_signing_key_from_jwt(token)
        claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=sys.argv[3], issuer=sys.argv[4])
        print(json.dumps({"kid": key.key_id, "claims": claims}, sort_keys=True))
        """

    private func python(_ script: String, _ arguments: [String]) async throws -> ProcessOutput {
        let python = try ExternalTool.debianPython3.path()
        let probe = try await ProcessRunner.run(python, ["-c", "import jwt, cryptography"])
        try #require(
            probe.status == 0,
            "PyJWT with its RSA support is missing: install the Debian packages python3-jwt and python3-cryptography (bash .ci/install does): \(probe.stderr)"
        )
        return try await ProcessRunner.run(python, ["-c", script] + arguments)
    }

    @Test func tokenSignedByPyJWTVerifies() async throws {
        try await withVerifier { provider, clock, verifier in
            let key = try TestIdentityProvider.SigningKey.generate(kid: "pyjwt-key-1")
            provider.publish(key)
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let keyFile = directory.file("key.pem")
            try key.privateKeyPEM.write(toFile: keyFile, atomically: true, encoding: .utf8)

            let iat = Int(clock.now)
            let claims = """
                {"iss":"\(provider.issuer)","sub":"py-user-7","aud":["\(provider.audience)","other"],"iat":\(iat),"exp":\(iat + 600),\
                "email":"py@example.com","email_verified":"true","name":"Py Thon","nonce":"n-123"}
                """
            let signed = try await python(Self.signScript, [keyFile, claims, key.kid])
            try #require(signed.status == 0, "\(signed)")
            let token = signed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

            let identity = try await verifier.verify(idToken: token, nonce: "n-123")
            #expect(identity == VerifiedIdentity(subject: "py-user-7", email: "py@example.com", isEmailVerified: true, displayName: "Py Thon"))

            // PyJWT's token for another client id is refused like ours.
            let foreign = try await python(Self.signScript, [keyFile, claims.replacingOccurrences(of: provider.audience, with: "stranger"), key.kid])
            try #require(foreign.status == 0, "\(foreign)")
            await expectRejected(foreign.stdout.trimmingCharacters(in: .whitespacesAndNewlines), by: verifier, mentioning: ["audience"])
        }
    }

    @Test func testProviderTokenVerifiesWithPyJWT() async throws {
        let provider = try await TestIdentityProvider.start()
        let now = Date().timeIntervalSince1970.rounded(.down)
        let token = try await provider.idToken(subject: "ours-1", email: "ours@example.com", issuedAt: now, nonce: "abc")
        let checked = try await python(Self.verifyScript, [provider.jwksURL, token, provider.audience, provider.issuer])
        try #require(checked.status == 0, "PyJWT refused the test provider's token: \(checked)")
        let decoded = try JSONSerialization.jsonObject(with: Data(checked.standardOutput)) as? [String: Any]
        #expect(decoded?["kid"] as? String == provider.currentKey.kid)
        let claims = decoded?["claims"] as? [String: Any]
        #expect(claims?["sub"] as? String == "ours-1")
        #expect(claims?["email"] as? String == "ours@example.com")
        #expect(claims?["email_verified"] as? Bool == true)
        #expect(claims?["nonce"] as? String == "abc")
        #expect(claims?["iat"] as? Int == Int(now))

        // And PyJWT refuses one signed by another key under the same key id, so the check can fail.
        let impostor = try TestIdentityProvider.SigningKey.generate()
        let forged = try await provider.idToken(issuedAt: now, signingKey: impostor.privateKey)
        let refused = try await python(Self.verifyScript, [provider.jwksURL, forged, provider.audience, provider.issuer])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("InvalidSignatureError"), "\(refused)")
        try await provider.stop()
    }
}
