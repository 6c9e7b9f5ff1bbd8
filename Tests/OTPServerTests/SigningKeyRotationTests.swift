import Foundation
import OTPSealing
import OTPServer
import OTPTestUtilities
import Testing

/// `otpkit-server rotate-signing-key` against the executable: tokens signed before a rotation keep
/// working at running and restarted servers, checked by PyJWT against the key set too, until a
/// later rotation drops their key; bad key files stop the rotation and the server with one line.
@Suite struct SigningKeyRotationTests {
    /// Runs `otpkit-server rotate-signing-key` with `arguments`, the test's own `OTPKIT_SERVER_*`
    /// variables removed.
    static func rotate(_ arguments: [String]) async throws -> ProcessOutput {
        try await ProcessRunner.run(
            try BuiltProduct.path("otpkit-server"), ["rotate-signing-key"] + arguments, environment: ServerProcess.serverEnvironment([:]))
    }

    /// Rotates the key of the server files in `directory`: the new kid its one line names.
    static func rotate(in directory: TemporaryDirectory, _ arguments: [String] = []) async throws -> String {
        let run = try await rotate(
            ["--db", directory.file("otpkit.sqlite"), "--key-file", try ServerProcess.sealingKeyFile(in: directory)] + arguments)
        try #require(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n")
        try #require(lines.count == 1, "\(run)")
        let kid = try #require(lines[0].firstMatch(of: /signed with key ([0-9a-f]{16})/)?.1, "\(run)")
        return String(kid)
    }

    /// The kids the server's key set publishes.
    static func publishedKids(_ server: ServerProcess) async throws -> Set<String> {
        let answer = try await server.get("/.well-known/jwks.json")
        #expect(answer.status == 200, "\(answer.body)")
        let keys = try #require(answer.json["keys"] as? [[String: Any]], "\(answer.body)")
        return Set(keys.compactMap { $0["kid"] as? String })
    }

    static func lookup(_ server: ServerProcess, _ token: String) async throws -> ServerProcess.Answer {
        try await server.post(ClientEndpointTests.lookup, #"{"idToken":"\#(token)"}"#)
    }

    /// PyJWT's verdict on `token` against the server's key set: exit status 0 when it verifies.
    static func pyJWT(_ server: ServerProcess, _ token: String) async throws -> ProcessOutput {
        let python = try ExternalTool.debianPython3.path()
        return try await ProcessRunner.run(
            python,
            [
                "-c", PythonClientTests.verifyScript, server.base + "/.well-known/jwks.json", token, server.projectID,
                "https://securetoken.google.com/" + server.projectID,
            ])
    }

    @Test func tokensOutliveARotationUntilTheirKeyIsDropped() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let credentials = #"{"email":"rota@example.com","password":"long enough","returnSecureToken":true}"#
        let sealer = try SecretSealer(current: SealingKey(contentsOfFile: try ServerProcess.sealingKeyFile(in: directory)))
        let keyFile = directory.file("otpkit.sqlite.signing-key")
        var first = ""
        var firstKid = ""
        var secondKid = ""
        var second = ""
        try await ServerProcess.with(in: directory) { server in
            let created = try await server.post(ClientEndpointTests.signUp, credentials)
            first = try #require(created.json["idToken"] as? String, "\(created.body)")
            firstKid = try #require(IDTokenKeyFileRotationTests.kid(of: first))
            #expect(try await Self.publishedKids(server) == [firstKid])

            secondKid = try await Self.rotate(in: directory)
            #expect(secondKid != firstKid)
            #expect(try await Self.lookup(server, first).status == 200)

            // A server sharing the file signs with the new key; this one takes the rotation up
            // when that token reaches it, not at its next look at the file.
            let shared = await IDTokenIssuer(projectID: server.projectID, signingKeys: try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer))
            let fromOther = try await shared.sign(try await shared.verify(first))
            #expect(IDTokenKeyFileRotationTests.kid(of: fromOther) == secondKid)
            let looked = try await Self.lookup(server, fromOther)
            #expect(looked.status == 200, "\(looked.body)")
            #expect(try await Self.publishedKids(server) == [firstKid, secondKid])
            let signedIn = try await server.post(ClientEndpointTests.signIn, credentials)
            second = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            #expect(IDTokenKeyFileRotationTests.kid(of: second) == secondKid)
        }

        try await ServerProcess.with(in: directory) { server in
            #expect(try await Self.publishedKids(server) == [firstKid, secondKid])
            #expect(try await Self.lookup(server, first).status == 200)
            for token in [first, second] {
                let checked = try await Self.pyJWT(server, token)
                #expect(checked.status == 0, "PyJWT refused a kept key's token: \(checked)")
            }
            // The signing key under a kid the server never made: refused, by the server and PyJWT.
            let keys = try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer)
            let impostor = await IDTokenIssuer(
                projectID: server.projectID, signingKey: IDTokenSigningKey(kid: "0123456789abcdef", privateKey: keys.signing.privateKey))
            let claims = try await IDTokenIssuer(projectID: server.projectID, signingKeys: keys).verify(second)
            let forged = try await impostor.sign(claims)
            let refused = try await Self.lookup(server, forged)
            #expect(refused.status == 400 && refused.errorMessage?.hasPrefix("INVALID_ID_TOKEN") == true, "\(refused.body)")
            #expect(try await Self.pyJWT(server, forged).status != 0)
        }

        // The second rotation reads the server's --config file, and is told the first key has
        // been retired long enough.
        let settings = directory.file("server.json")
        let json =
            #"{"db":"\#(directory.file("otpkit.sqlite"))","key-file":"\#(try ServerProcess.sealingKeyFile(in: directory))","project-id":"demo-otpkit","emulator":true}"#
        try json.write(toFile: settings, atomically: true, encoding: .utf8)
        let rotated = try await Self.rotate(["--config", settings, "--retired-key-retention", "0"])
        #expect(rotated.status == 0, "\(rotated)")
        let thirdKid = try #require(rotated.stdout.firstMatch(of: /signed with key ([0-9a-f]{16})/)?.1, "\(rotated)")

        try await ServerProcess.with(in: directory) { server in
            #expect(try await Self.publishedKids(server) == [secondKid, String(thirdKid)])
            let dropped = try await Self.lookup(server, first)
            #expect(dropped.status == 400 && dropped.errorMessage?.hasPrefix("INVALID_ID_TOKEN") == true, "\(dropped.body)")
            #expect(try await Self.pyJWT(server, first).status != 0, "PyJWT accepted a dropped key's token")
            #expect(try await Self.lookup(server, second).status == 200)
            #expect(try await Self.pyJWT(server, second).status == 0)
        }
    }

    @Test func aRunningServerTakesUpARotationWithinItsCheckInterval() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await ServerProcess.with(in: directory) { server in
            let oldKids = try await Self.publishedKids(server)
            let newKid = try await Self.rotate(in: directory)
            // Nothing names the new key to the server: only its periodic look at the file finds it.
            let deadline = ContinuousClock.now + .seconds(IDTokenKeyFileMonitor.checkInterval + 15)
            var kids = oldKids
            while kids == oldKids, ContinuousClock.now < deadline {
                try await Task.sleep(for: .seconds(1))
                kids = try await Self.publishedKids(server)
            }
            #expect(kids == oldKids.union([newKid]))
            let created = try await server.post(ClientEndpointTests.signUp, #"{"returnSecureToken":true}"#)
            let token = try #require(created.json["idToken"] as? String, "\(created.body)")
            #expect(IDTokenKeyFileRotationTests.kid(of: token) == newKid)
        }
    }

    @Test func badKeyFilesStopTheRotationAndTheServerWithOneLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sealingKey = try ServerProcess.sealingKeyFile(in: directory)
        let database = directory.file("otpkit.sqlite")
        let keyFile = database + ".signing-key"
        var secrets = [try String(contentsOfFile: sealingKey, encoding: .utf8)]

        /// Runs the rotation and the server with `arguments` and expects both to stop with one
        /// line saying `says`, no secret in it, and the directory as it was.
        func expectRefused(_ arguments: [String], says: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let before = try Self.snapshot(directory)
            let fileSecrets = secrets + Self.sealedFields(keyFile)
            let rotation = try await Self.rotate(["--db", database] + arguments)
            let start = try await ProcessRunner.run(
                try BuiltProduct.path("otpkit-server"),
                ["--db", database, "--project-id", "demo-otpkit", "--emulator", "--port", "0"] + arguments,
                environment: ServerProcess.serverEnvironment([:]))
            for run in [rotation, start] {
                #expect(run.status == 1, "\(arguments): \(run)", sourceLocation: sourceLocation)
                #expect(run.stdout.isEmpty, "\(arguments): \(run)", sourceLocation: sourceLocation)
                let lines = run.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].contains(says), "\(arguments): \(run)", sourceLocation: sourceLocation)
                for secret in fileSecrets {
                    #expect(!run.stderr.contains(secret.trimmingCharacters(in: .whitespacesAndNewlines)), sourceLocation: sourceLocation)
                }
            }
            #expect(try Self.snapshot(directory) == before, "\(arguments) changed the directory", sourceLocation: sourceLocation)
        }

        // No file: the server would make one, a rotation must not.
        let rotation = try await Self.rotate(["--db", database, "--key-file", sealingKey])
        #expect(rotation.status == 1 && rotation.stderr.contains("there is no ID token signing key file \(keyFile): start otpkit-server once"))
        #expect(!FileManager.default.fileExists(atPath: keyFile))

        // The file a first start made, under another sealing key than the one given.
        let sealer = try SecretSealer(current: SealingKey(contentsOfFile: sealingKey))
        _ = try IDTokenKeyFile.loadOrCreate(path: keyFile, sealer: sealer)
        let otherKey = directory.file("other.key")
        try (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined().write(
            toFile: otherKey, atomically: true, encoding: .utf8)
        secrets.append(try String(contentsOfFile: otherKey, encoding: .utf8))
        try await expectRefused(
            ["--key-file", otherKey], says: "the sealing key does not open the ID token signing key \(keyFile): give the sealing key")
        try await expectRefused(["--key-file", directory.file("no-such.key")], says: "cannot read sealing key file")

        // A file changed by hand.
        let original = try String(contentsOfFile: keyFile, encoding: .utf8)
        try original.replacingOccurrences(of: "\"tag\":\"", with: "\"tag\":\"00").write(toFile: keyFile, atomically: true, encoding: .utf8)
        try await expectRefused(["--key-file", sealingKey], says: "\(keyFile) is not an otpkit-server signing key file, or it was changed")
        try original.write(toFile: keyFile, atomically: true, encoding: .utf8)

        // A directory where the file should be.
        try await expectRefused(
            ["--key-file", sealingKey, "--signing-key-file", directory.path], says: "cannot read the ID token signing key file \(directory.path)")
    }

    /// Every file of `directory` and its bytes.
    static func snapshot(_ directory: TemporaryDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            var isDirectory: ObjCBool = false
            let path = directory.file(name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                files[name] = Data()
                continue
            }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    /// The sealed fields of the key file at `path`, none of which an error may repeat.
    static func sealedFields(_ path: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return ["wrappedKey", "nonce", "ciphertext", "tag"].compactMap { object[$0] as? String }
    }
}
