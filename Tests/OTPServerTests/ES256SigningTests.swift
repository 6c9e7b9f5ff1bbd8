import Foundation
import JWTKit
import OTPSealing
import OTPServer
import OTPTestUtilities
import Testing

/// ES256 ID token signing keys, from the routes served in process and from the built executable
/// (`--signing-algorithm ES256` and `rotate-signing-key --algorithm`, key files across restarts),
/// checked by implementations nobody here wrote (Python's
/// `cryptography` on the raw ECDSA signature, PyJWT, firebase-admin), and tokens whose header
/// names another algorithm than their key's refused.
@Suite struct ES256SigningTests {
    /// Fetches the key set (argument 1); for each token (arguments 2 and 3) builds the P-256 key
    /// its kid names from the JWK's x and y, turns the JWS signature (r||s) into DER and verifies
    /// ECDSA-SHA256 over `header.payload` with `cryptography`, then decodes it with PyJWT for the
    /// audience (argument 4).
    static let verifyScript = """
        import base64, json, sys, urllib.request
        import jwt
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
        def b64(text):
            return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        keys = json.load(urllib.request.urlopen(sys.argv[1]))["keys"]
        out = {}
        for name, token in (("token", sys.argv[2]), ("tampered", sys.argv[3])):
            header_part, payload_part, signature_part = token.split(".")
            header = json.loads(b64(header_part))
            jwk = next(key for key in keys if key["kid"] == header["kid"])
            numbers = ec.EllipticCurvePublicNumbers(
                int.from_bytes(b64(jwk["x"]), "big"), int.from_bytes(b64(jwk["y"]), "big"), ec.SECP256R1())
            signature = b64(signature_part)
            der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
            result = {"header": header, "jwk": jwk, "signatureLength": len(signature)}
            try:
                numbers.public_key().verify(der, (header_part + "." + payload_part).encode(), ec.ECDSA(hashes.SHA256()))
                result["cryptography"] = "verified"
            except InvalidSignature:
                result["cryptography"] = "refused"
            try:
                result["pyjwt"] = jwt.decode(token, key=jwt.PyJWK(jwk).key, algorithms=["ES256"], audience=sys.argv[4])["sub"]
            except jwt.InvalidTokenError as error:
                result["pyjwt"] = "refused: " + type(error).__name__
            out[name] = result
        print(json.dumps(out))
        """

    /// firebase-admin's `verify_id_token` on an ES256 token and on one with a changed signature,
    /// under `FIREBASE_AUTH_EMULATOR_HOST`, then without it (the client made, so no credentials
    /// are needed to reach the algorithm check).
    static let firebaseAdminScript = """
        import os
        token, tampered = sys.argv[2], sys.argv[3]
        out = {"emulated": auth.verify_id_token(token)["uid"], "emulatedTampered": auth.verify_id_token(tampered)["uid"]}
        del os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
        try:
            auth.verify_id_token(token)
            out["production"] = "accepted"
        except Exception as error:
            out["production"] = type(error).__name__ + ": " + str(error)
        print(json.dumps(out))
        """

    /// The header of `token` as JSON.
    static func header(of token: String) throws -> [String: Any] {
        let text = try #require(ClientEndpointTests.base64URLDecode(token.split(separator: ".")[0]))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `token` with one byte of its signature changed.
    static func tampered(_ token: String) throws -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var base64 = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        var signature = [UInt8](try #require(Data(base64Encoded: base64)))
        signature[signature.count / 2] ^= 0x01
        parts[2] = Data(signature).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return parts.joined(separator: ".")
    }

    /// The server's key set, by kid.
    static func keySet(_ server: some IdentityToolkitTestClient) async throws -> [String: [String: Any]] {
        let answer = try await server.get("/.well-known/jwks.json")
        #expect(answer.status == 200, "\(answer.body)")
        let keys = try #require(answer.json["keys"] as? [[String: Any]], "\(answer.body)")
        return Dictionary(uniqueKeysWithValues: keys.map { ($0["kid"] as? String ?? "", $0) })
    }

    static func signUp(_ server: some IdentityToolkitTestClient, _ email: String) async throws -> (token: String, uid: String) {
        let created = try await server.send(
            ClientEndpointTests.signUp, #"{"email":"\#(email)","password":"long enough","returnSecureToken":true}"#, bearer: nil)
        let token = try #require(created.json["idToken"] as? String, "\(created.body)")
        return (token, try #require(created.json["localId"] as? String))
    }

    static func signIn(_ server: some IdentityToolkitTestClient, _ email: String) async throws -> String {
        let signedIn = try await server.send(ClientEndpointTests.signIn, #"{"email":"\#(email)","password":"long enough"}"#, bearer: nil)
        return try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
    }

    static func lookup(_ server: some IdentityToolkitTestClient, _ token: String) async throws -> ServerProcess.Answer {
        try await server.send(ClientEndpointTests.lookup, #"{"idToken":"\#(token)"}"#, bearer: nil)
    }

    static func expectRefused(
        _ server: some IdentityToolkitTestClient, _ token: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let refused = try await Self.lookup(server, token)
        #expect(
            refused.status == 400 && refused.errorMessage?.hasPrefix("INVALID_ID_TOKEN") == true, "\(refused.body)",
            sourceLocation: sourceLocation)
    }

    @Test func anES256ServerSignsTokensThatIndependentVerifiersAccept() async throws {
        let python = try ExternalTool.debianPython3.path()
        try await InProcessServer.with(signingAlgorithm: .es256, live: true) { server in
            let (token, uid) = try await Self.signUp(server, "es@example.com")
            let signedIn = try await Self.signIn(server, "es@example.com")
            for token in [token, signedIn] {
                let header = try Self.header(of: token)
                #expect(header["alg"] as? String == "ES256")
                let kid = try #require(header["kid"] as? String)
                let jwk = try #require(try await Self.keySet(server)[kid])
                #expect(jwk["kty"] as? String == "EC" && jwk["crv"] as? String == "P-256" && jwk["alg"] as? String == "ES256", "\(jwk)")
                #expect(jwk["d"] == nil, "the key set publishes the private key")

                let looked = try await Self.lookup(server, token)
                #expect(looked.status == 200, "\(looked.body)")
                let tampered = try Self.tampered(token)
                try await Self.expectRefused(server, tampered)

                let checked = try await ProcessRunner.run(
                    python, ["-c", Self.verifyScript, server.base + "/.well-known/jwks.json", token, tampered, server.projectID])
                try #require(checked.status == 0, "\(checked)")
                let out = try #require(try JSONSerialization.jsonObject(with: Data(checked.standardOutput)) as? [String: [String: Any]])
                #expect(out["token"]?["signatureLength"] as? Int == 64)
                #expect(out["token"]?["cryptography"] as? String == "verified", "\(checked)")
                #expect(out["token"]?["pyjwt"] as? String == uid, "\(checked)")
                #expect(out["tampered"]?["cryptography"] as? String == "refused", "\(checked)")
                #expect(out["tampered"]?["pyjwt"] as? String == "refused: InvalidSignatureError", "\(checked)")
            }
        }
    }

    /// firebase-admin checks no signature under the emulator, so it takes ES256 tokens (and a
    /// changed one); outside it, it refuses every algorithm but RS256 before it looks at a key.
    /// `--signing-algorithm`'s help says so.
    @Test func firebaseAdminAcceptsES256TokensOnlyUnderTheEmulator() async throws {
        try await InProcessServer.with(signingAlgorithm: .es256, live: true) { server in
            let (token, uid) = try await Self.signUp(server, "fa@example.com")
            let out = try await server.firebaseAdmin(Self.firebaseAdminScript, [token, try Self.tampered(token)])
            #expect(out["emulated"] as? String == uid)
            #expect(out["emulatedTampered"] as? String == uid)
            let production = try #require(out["production"] as? String)
            #expect(production.hasPrefix("InvalidIdTokenError") && production.contains(#"Expected "RS256" but got "ES256""#), "\(production)")
        }
    }

    @Test func aRotationFromRS256ToES256KeepsTheRSAKeyVerifying() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.file("otpkit.sqlite.signing-key")
        var before = ""
        var rsaKid = ""
        try await ServerProcess.with(in: directory) { server in
            before = try await Self.signUp(server, "rot@example.com").token
            #expect(try Self.header(of: before)["alg"] as? String == "RS256")
            rsaKid = try #require(try Self.header(of: before)["kid"] as? String)
        }
        #expect(try IDTokenKeyFileRotationTests.format(of: keyFile) == "otpkit-server ID token key 1")

        let rotation = try await SigningKeyRotationTests.rotate([
            "--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--algorithm", "ES256",
        ])
        #expect(rotation.status == 0 && rotation.stdout.contains("(ES256)"), "\(rotation)")
        let ecKid = String(try #require(rotation.stdout.firstMatch(of: /signed with key ([0-9a-f]{16})/)?.1, "\(rotation)"))
        #expect(try IDTokenKeyFileRotationTests.format(of: keyFile) == "otpkit-server ID token keys 3")

        try await ServerProcess.with(in: directory) { server in
            let keys = try await Self.keySet(server)
            #expect(Set(keys.keys) == [rsaKid, ecKid])
            #expect(keys[rsaKid]?["kty"] as? String == "RSA" && keys[rsaKid]?["alg"] as? String == "RS256")
            #expect(keys[ecKid]?["kty"] as? String == "EC" && keys[ecKid]?["alg"] as? String == "ES256")
            let looked = try await SigningKeyRotationTests.lookup(server, before)
            #expect(looked.status == 200, "\(looked.body)")
            #expect(try await SigningKeyRotationTests.pyJWT(server, before).status == 0)
            let after = try await Self.signIn(server, "rot@example.com")
            #expect(try Self.header(of: after)["alg"] as? String == "ES256")
            #expect(try Self.header(of: after)["kid"] as? String == ecKid)
            #expect(try await SigningKeyRotationTests.lookup(server, after).status == 200)
        }

        // Without --algorithm a rotation keeps the signing key's: ES256 again.
        let again = try await SigningKeyRotationTests.rotate(in: directory)
        let sealer = try SecretSealer(current: SealingKey(contentsOfFile: try ServerProcess.sealingKeyFile(in: directory)))
        let keys = try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer)
        #expect(keys.keys.map(\.kid) == [again, ecKid, rsaKid])
        #expect(keys.keys.map(\.algorithm) == [.es256, .es256, .rs256])
    }

    /// An ES256 file survives a restart, and `--signing-algorithm` never changes an existing file.
    @Test func anES256KeyFileRoundTripsThroughARestart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.file("otpkit.sqlite.signing-key")
        var before = ""
        var kid = ""
        try await ServerProcess.with(arguments: ["--emulator", "--signing-algorithm", "ES256"], in: directory) { server in
            before = try await Self.signUp(server, "rt@example.com").token
            kid = try #require(try Self.header(of: before)["kid"] as? String)
        }
        #expect(try IDTokenKeyFileRotationTests.format(of: keyFile) == "otpkit-server ID token keys 3")
        let file = try String(contentsOfFile: keyFile, encoding: .utf8)
        #expect(file.contains(#""algorithm":"ES256""#))
        #expect(!file.contains("PRIVATE KEY"), "the key is stored unsealed")

        for arguments in [["--emulator"], ["--emulator", "--signing-algorithm", "RS256"]] {
            try await ServerProcess.with(arguments: arguments, in: directory) { server in
                #expect(Set(try await Self.keySet(server).keys) == [kid])
                let looked = try await SigningKeyRotationTests.lookup(server, before)
                #expect(looked.status == 200, "\(looked.body)")
                let after = try await Self.signIn(server, "rt@example.com")
                #expect(try Self.header(of: after)["alg"] as? String == "ES256")
                #expect(try Self.header(of: after)["kid"] as? String == kid)
            }
        }
    }

    @Test func theConfigFileAndTheEnvironmentNameTheAlgorithmToo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let settings = directory.file("server.json")
        try #"{"signing-algorithm":"ES256","signing-key-file":"\#(directory.file("file.signing-key"))"}"#.write(
            toFile: settings, atomically: true, encoding: .utf8)
        try await ServerProcess.with(arguments: ["--emulator", "--config", settings], in: directory) { server in
            let token = try await Self.signUp(server, "file@example.com").token
            #expect(try Self.header(of: token)["alg"] as? String == "ES256")
        }
        let commandLine = [
            "--db", directory.file("other.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory), "--project-id",
            "demo-otpkit", "--port", "0", "--emulator",
        ]
        try await ServerProcess.with(
            commandLine: commandLine, environment: ["OTPKIT_SERVER_SIGNING_ALGORITHM": "ES256"], projectID: "demo-otpkit", in: directory
        ) { server in
            let token = try await Self.signUp(server, "env@example.com").token
            #expect(try Self.header(of: token)["alg"] as? String == "ES256")
        }
    }

    @Test func aKeyOfAnUnknownAlgorithmStopsTheServerWithOneLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sealingKey = try ServerProcess.sealingKeyFile(in: directory)
        let database = directory.file("otpkit.sqlite")
        let keyFile = database + ".signing-key"
        let sealer = try SecretSealer(current: SealingKey(contentsOfFile: sealingKey))
        let keys = try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer, algorithm: .es256)
        let original = try String(contentsOfFile: keyFile, encoding: .utf8)
        try original.replacingOccurrences(of: #""algorithm":"ES256""#, with: #""algorithm":"EdDSA""#).write(
            toFile: keyFile, atomically: true, encoding: .utf8)
        let expected = IDTokenKeyFileError.unknownAlgorithm(path: keyFile, kid: keys.signing.kid, algorithm: "EdDSA")
        #expect(throws: expected) { try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer) }
        #expect(expected.description.contains("signs with EdDSA, which this otpkit-server does not know (it knows RS256, ES256)"))

        let start = try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"),
            ["--db", database, "--key-file", sealingKey, "--project-id", "demo-otpkit", "--emulator", "--port", "0"],
            environment: ServerProcess.serverEnvironment([:]))
        #expect(start.status == 1, "\(start)")
        let lines = start.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasSuffix(expected.description), "\(start)")

        // A later format: a newer version wrote it.
        try original.replacingOccurrences(of: "ID token keys 3", with: "ID token keys 4").write(
            toFile: keyFile, atomically: true, encoding: .utf8)
        #expect(throws: IDTokenKeyFileError.newerFormat(path: keyFile, format: "otpkit-server ID token keys 4")) {
            try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer)
        }
    }

    @Test func aBadAlgorithmIsRefusedNamingTheAcceptedValues() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sealingKey = try ServerProcess.sealingKeyFile(in: directory)
        let database = directory.file("otpkit.sqlite")
        let server = ["--db", database, "--key-file", sealingKey, "--project-id", "demo-otpkit", "--emulator", "--port", "0"]
        let runs = [
            try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"), server + ["--signing-algorithm", "HS256"],
                environment: ServerProcess.serverEnvironment([:])),
            try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"), server,
                environment: ServerProcess.serverEnvironment(["OTPKIT_SERVER_SIGNING_ALGORITHM": "HS256"])),
            try await SigningKeyRotationTests.rotate(["--db", database, "--key-file", sealingKey, "--algorithm", "HS256"]),
        ]
        // ArgumentParser's usage lines follow the one that says what is wrong.
        for (run, option) in zip(runs, ["--signing-algorithm", "--signing-algorithm", "--algorithm"]) {
            #expect(run.status == 64, "\(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            let first = run.stderr.split(separator: "\n").first ?? ""
            #expect(first == "Error: \(option) must be one of RS256, ES256, not HS256", "\(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: database + ".signing-key"))
    }

    /// JWTKit verifies with the key its `kid` names in that key's algorithm, whatever the header's
    /// `alg` says; the issuer refuses a header that disagrees with the key.
    @Test func aHeaderNamingAnotherAlgorithmThanItsKeyIsRefused() async throws {
        let clock = IDTokenIssuerTests.Clock()
        let key = try IDTokenSigningKey.generate(algorithm: .es256)
        #expect(key.algorithm == .es256)
        let issuer = await IDTokenIssuer(projectID: "demo-a", signingKey: key, clock: clock.read)
        let claims = IDTokenIssuerTests.claims(issuer, at: clock.read())
        let token = try await issuer.sign(claims)
        #expect(try Self.header(of: token)["alg"] as? String == "ES256")
        #expect(try await issuer.verify(token).subject == "user-1")

        guard case .es256(let ecdsa) = key.privateKey else {
            Issue.record("an ES256 key holds no P-256 key")
            return
        }
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: ecdsa, kid: JWKIdentifier(string: key.kid))
        for alg in ["RS256", "HS256", "none", "ES384"] {
            // Signed by the right key, only the header's alg changed.
            let forged = try await collection.sign(claims, kid: JWKIdentifier(string: key.kid), header: ["alg": .string(alg)])
            #expect(try Self.header(of: forged)["alg"] as? String == alg)
            let jwtKitAlone = try? await collection.verify(forged, as: IDTokenClaims.self)
            #expect(jwtKitAlone != nil, "JWTKit refuses a header alg itself now: the issuer's own check may be redundant")
            await #expect(throws: IDTokenError.invalid) { try await issuer.verify(forged) }
        }
        // An RS256 issuer's token under the ES256 key's kid.
        let rsaImpostor = await IDTokenIssuer(
            projectID: "demo-a", signingKey: IDTokenSigningKey(kid: key.kid, privateKey: try IDTokenSigningKey.generate().privateKey),
            clock: clock.read)
        await #expect(throws: IDTokenError.invalid) { try await issuer.verify(try await rsaImpostor.sign(claims)) }
        // No alg at all.
        let parts = token.split(separator: ".")
        let bare = ClientEndpointTests.base64URLEncode(#"{"kid":"\#(key.kid)","typ":"JWT"}"#) + "." + parts[1] + "." + parts[2]
        await #expect(throws: IDTokenError.invalid) { try await issuer.verify(bare) }

        // A key set mixing the two algorithms verifies each key's tokens.
        let rsa = try IDTokenSigningKey.generate()
        let mixed = await IDTokenIssuer(
            projectID: "demo-a",
            signingKeys: IDTokenSigningKeySet(keys: [rsa, IDTokenSigningKey(kid: key.kid, privateKey: key.privateKey, retiredAt: 0)]),
            clock: clock.read)
        #expect(try await mixed.verify(token).subject == "user-1")
        let fromRSA = try await mixed.sign(claims)
        #expect(try Self.header(of: fromRSA)["alg"] as? String == "RS256")
        #expect(try await mixed.verify(fromRSA).subject == "user-1")
        let keySet = try mixed.keySetJSON()
        #expect(keySet.contains(#""kty":"EC""#) && keySet.contains(#""kty":"RSA""#) && keySet.contains(#""crv":"P-256""#))
    }
}
