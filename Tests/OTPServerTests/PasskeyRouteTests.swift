import Foundation
import OTPAuthentication
import OTPAuthenticationSQLite
import OTPCore
import OTPSealing
import OTPServer
import OTPTestUtilities
import OTPWebAuthn
import Testing

/// Firebase's passkey endpoints (`passkeyEnrollment:start|finalize`, `passkeySignIn:start|finalize`,
/// `passkeyInfo` in lookups, `deletePasskey` in `accounts:update`) driven in process with
/// credentials made by software authenticators nobody here wrote the cryptography of
/// (Tests/WebAuthnClients): bodies in JS's shape (base64url) and iOS's (standard base64, `id`
/// alone), every refusal checked to store nothing.
@Suite struct PasskeyRouteTests {
    static let origin = "http://localhost:9099"
    static func configuration(_ userVerification: UserVerification = .required) -> MultiFactorConfiguration {
        var configuration = InProcessServer.configuration
        configuration.passkeys = PasskeySettings(relyingPartyID: "localhost", origins: [origin], userVerification: userVerification)
        return configuration
    }

    /// What a client sends and gets, and the authenticator's answers in the two dialects.
    struct Ceremony {
        let server: InProcessServer
        var userVerification = UserVerification.required

        func start(_ endpoint: String, _ body: String) async throws -> [String: Any] {
            let answer = try await server.post(ServerProcess.v2(endpoint), body)
            try #require(answer.status == 200, "\(endpoint): \(answer.body)")
            return answer.json
        }

        /// The challenge of `passkeySignIn:start`, as iOS decodes it (standard base64, padded).
        func signInChallenge() async throws -> [UInt8] {
            let options = try #require(try await start("passkeySignIn:start", "{}")["credentialRequestOptions"] as? [String: Any])
            #expect(options["rpId"] as? String == "localhost" && options["userVerification"] as? String == userVerification.rawValue)
            #expect(options["allowCredentials"] == nil, "a sign-in names no credential: the authenticator offers its discoverable ones")
            return try Self.standard(options["challenge"])
        }

        /// The creation options of `passkeyEnrollment:start` for `idToken`: its challenge and user handle.
        func enrollmentOptions(_ idToken: String) async throws -> (challenge: [UInt8], userHandle: [UInt8], options: [String: Any]) {
            let options = try #require(
                try await start("passkeyEnrollment:start", #"{"idToken":"\#(idToken)"}"#)["credentialCreationOptions"] as? [String: Any])
            let user = try #require(options["user"] as? [String: Any])
            return (try Self.standard(options["challenge"]), try Self.standard(user["id"]), options)
        }

        static func standard(_ value: Any?) throws -> [UInt8] {
            let text = try #require(value as? String)
            return Array(try #require(Data(base64Encoded: text), "\(text) is not standard padded base64, which iOS needs"))
        }

        /// `response` of a registration in JS's shape (base64url without padding, `id`, `rawId`,
        /// `type`) or iOS's (standard base64, `id` alone).
        static func registration(_ output: PythonAuthenticator.Output, iOS: Bool = false, clientDataJSON: [UInt8]? = nil) throws -> String {
            let encode = iOS ? { (bytes: [UInt8]) in Data(bytes).base64EncodedString() } : { Base64URL.encode($0) }
            let id = encode(try hex(output.rawId))
            var credential: [String: Any] = [
                "id": id,
                "response": [
                    "clientDataJSON": encode(try clientDataJSON ?? hex(output.clientDataJSON)),
                    "attestationObject": encode(try hex(output.attestationObject)),
                ],
            ]
            if !iOS {
                credential["rawId"] = id
                credential["type"] = "public-key"
            }
            return try json(credential)
        }

        static func assertion(_ output: PythonAuthenticator.Output, _ index: Int, iOS: Bool = false, signature: [UInt8]? = nil) throws -> String {
            let encode = iOS ? { (bytes: [UInt8]) in Data(bytes).base64EncodedString() } : { Base64URL.encode($0) }
            let assertion = output.assertions[index]
            let id = encode(try hex(output.rawId))
            var credential: [String: Any] = [
                "id": id,
                "response": [
                    "clientDataJSON": encode(try hex(assertion.clientDataJSON)),
                    "authenticatorData": encode(try hex(assertion.authenticatorData)),
                    "signature": encode(try signature ?? hex(assertion.signature)),
                    "userHandle": encode(try hex(assertion.userHandle)),
                ],
            ]
            if !iOS {
                credential["rawId"] = id
                credential["type"] = "public-key"
            }
            return try json(credential)
        }

        func finalizeEnrollment(_ idToken: String, _ credential: String, name: String = "Ada's phone") async throws -> ServerProcess.Answer {
            try await server.post(
                ServerProcess.v2("passkeyEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","name":"\#(name)","authenticatorRegistrationResponse":\#(credential)}"#)
        }

        func finalizeSignIn(_ credential: String) async throws -> ServerProcess.Answer {
            try await server.post(ServerProcess.v2("passkeySignIn:finalize"), #"{"authenticatorAuthenticationResponse":\#(credential)}"#)
        }

        /// The user's `passkeyInfo`, `nil` when the key is absent.
        func passkeyInfo(_ idToken: String) async throws -> [[String: Any]]? {
            let found = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(idToken)"}"#)
            try #require(found.status == 200, "\(found.body)")
            return (found.json["users"] as? [[String: Any]])?.first?["passkeyInfo"] as? [[String: Any]]
        }

        /// Runs `authenticator.py` (ES256 unless `algorithm`, user verified unless `verified` is
        /// false, attestation none) for one registration and an assertion per sign-in challenge,
        /// with the key of an `earlier` run when given.
        func authenticator(
            _ registration: (challenge: [UInt8], userHandle: [UInt8], options: [String: Any]), signIns: [[UInt8]], algorithm: Int = -7,
            attestation: String = "none", origin: String = PasskeyRouteTests.origin, verified: Bool = true,
            reusing earlier: PythonAuthenticator.Output? = nil
        ) async throws -> PythonAuthenticator.Output {
            var request: [String: Any] = [
                "rpId": "localhost", "origin": origin, "algorithm": algorithm, "attestation": attestation,
                "userHandle": Hex.encode(registration.userHandle), "flags": ["uv": verified, "be": true, "bs": true],
                "registrationChallenge": Hex.encode(registration.challenge), "assertionChallenges": signIns.map { Hex.encode($0) },
                "certificateTime": server.clock.now(),
            ]
            if let earlier {
                request["privateKey"] = earlier.privateKey
                request["credentialId"] = earlier.rawId
            }
            return try await PythonAuthenticator.run("authenticator.py", request)
        }
    }

    static func hex(_ text: String) throws -> [UInt8] { try #require(Hex.decode(text)) }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func error(_ answer: ServerProcess.Answer) -> String {
        answer.errorMessage?.split(separator: " ").first.map(String.init) ?? "status \(answer.status): \(answer.body)"
    }

    @Test(arguments: [(-7, "none"), (-8, "packed"), (-257, "packed-x5c")])
    func aPasskeyRegisteredThroughTheAPISignsInAsJSAndAsIOS(_ algorithm: Int, _ attestation: String) async throws {
        let store = InMemoryAuthStore()
        try await InProcessServer.with(configuration: Self.configuration(), store: store) { server in
            let ceremony = Ceremony(server: server)
            let (uid, idToken) = try await server.verifiedUser("ada@example.com")
            let signIns = [try await ceremony.signInChallenge(), try await ceremony.signInChallenge(), try await ceremony.signInChallenge()]
            let registration = try await ceremony.enrollmentOptions(idToken)
            let options = registration.options
            #expect((options["rp"] as? [String: Any])?["id"] as? String == "localhost")
            #expect((options["user"] as? [String: Any])?["name"] as? String == "ada@example.com")
            #expect((options["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-8, -7, -257])
            let selection = try #require(options["authenticatorSelection"] as? [String: Any])
            #expect(selection["residentKey"] as? String == "required" && selection["userVerification"] as? String == "required")
            #expect(options["attestation"] as? String == "none" && options["timeout"] as? Int == 300_000)
            #expect(registration.userHandle.count == 32 && registration.challenge.count == 32)

            let output = try await ceremony.authenticator(registration, signIns: signIns, algorithm: algorithm, attestation: attestation)
            let enrolled = try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(output))
            #expect(enrolled.status == 200, "\(enrolled.body)")
            #expect(enrolled.json["localId"] as? String == uid)
            let enrolledToken = try #require(enrolled.json["idToken"] as? String)
            #expect(enrolled.json["refreshToken"] is String)
            let info = try #require(try await ceremony.passkeyInfo(enrolledToken))
            #expect(info.count == 1)
            #expect(info.first?["credentialId"] as? String == Base64URL.encode(try Self.hex(output.rawId)))
            #expect(info.first?["name"] as? String == "Ada's phone")

            // JS's shape, then iOS's.
            let js = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 0))
            #expect(js.status == 200, "\(js.body)")
            #expect(js.json["localId"] as? String == uid)
            let claims = try await server.verifiedClaims(try #require(js.json["idToken"] as? String))
            #expect(claims.subject == uid && claims.firebase.signInProvider == "passkey")
            let iOS = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 1, iOS: true))
            #expect(iOS.status == 200, "\(iOS.body)")
            #expect(store.passkey(credentialID: try Self.hex(output.rawId))?.signCount == 2)

            // The same assertion again: its challenge is spent.
            let replayed = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 1))
            #expect(Self.error(replayed) == "INVALID_AUTHENTICATOR_RESPONSE", "\(replayed.body)")
            // A signature altered by one bit.
            var signature = try Self.hex(output.assertions[2].signature)
            signature[signature.count / 2] ^= 1
            let tampered = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 2, signature: signature))
            #expect(Self.error(tampered) == "INVALID_AUTHENTICATOR_RESPONSE", "\(tampered.body)")
            #expect(tampered.errorMessage?.contains("signature") == true, "\(tampered.body)")
            #expect(store.passkey(credentialID: try Self.hex(output.rawId))?.signCount == 2, "refusals record nothing")
        }
    }

    /// python-fido2 reads the options exactly as the server sent them (standard base64, for iOS)
    /// and, as its own relying party server, verifies the responses OTPKit accepted.
    @Test func pythonFido2ReadsTheOptionsAndAgreesWithTheVerification() async throws {
        try await InProcessServer.with(configuration: Self.configuration()) { server in
            let ceremony = Ceremony(server: server)
            let (_, idToken) = try await server.verifiedUser("fay@example.com")
            let requestOptions = try #require(try await ceremony.start("passkeySignIn:start", "{}")["credentialRequestOptions"] as? [String: Any])
            let signIn = try Ceremony.standard(requestOptions["challenge"])
            let registration = try await ceremony.enrollmentOptions(idToken)
            let output = try await ceremony.authenticator(registration, signIns: [signIn])
            let registered = try Ceremony.registration(output)
            #expect(try await ceremony.finalizeEnrollment(idToken, registered).status == 200)
            let asserted = try Ceremony.assertion(output, 0)
            #expect(try await ceremony.finalizeSignIn(asserted).status == 200)

            func object(_ json: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(json.utf8)) }
            let fido2 = try await PythonAuthenticator.object(
                "fido2_check.py",
                [
                    "creationOptions": registration.options, "requestOptions": requestOptions, "origin": Self.origin,
                    "registration": try object(registered), "assertion": try object(asserted),
                ])
            #expect(fido2["failed"] == nil, "\(fido2)")
            let creation = try #require(fido2["creation"] as? [String: Any])
            #expect(creation["rpId"] as? String == "localhost" && creation["userName"] as? String == "fay@example.com")
            #expect(creation["userId"] as? String == Hex.encode(registration.userHandle))
            #expect(creation["challenge"] as? String == Hex.encode(registration.challenge))
            #expect(creation["algorithms"] as? [Int] == [-8, -7, -257])
            #expect(creation["residentKey"] as? String == "required" && creation["userVerification"] as? String == "required")
            #expect(creation["attestation"] as? String == "none" && creation["timeout"] as? Int == 300_000)
            let request = try #require(fido2["request"] as? [String: Any])
            #expect(request["rpId"] as? String == "localhost" && request["challenge"] as? String == Hex.encode(signIn))
            #expect(fido2["registered"] as? String == output.rawId && fido2["authenticated"] as? String == output.rawId)
        }
    }

    @Test func softWebauthnNeverVerifiesTheUserSoARequiredVerificationRefusesIt() async throws {
        for userVerification in [UserVerification.required, .preferred] {
            try await InProcessServer.with(configuration: Self.configuration(userVerification)) { server in
                let ceremony = Ceremony(server: server, userVerification: userVerification)
                let (_, idToken) = try await server.verifiedUser("bo@example.com")
                let signIn = try await ceremony.signInChallenge()
                let registration = try await ceremony.enrollmentOptions(idToken)
                let output = try await PythonAuthenticator.run(
                    "soft_authenticator.py",
                    [
                        "rpId": "localhost", "origin": Self.origin, "userHandle": Hex.encode(registration.userHandle),
                        "registrationChallenge": Hex.encode(registration.challenge), "assertionChallenges": [Hex.encode(signIn)],
                    ])
                let enrolled = try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(output))
                switch userVerification {
                case .required:
                    #expect(Self.error(enrolled) == "INVALID_AUTHENTICATOR_RESPONSE", "\(enrolled.body)")
                    #expect(enrolled.errorMessage?.contains("flag UV") == true, "\(enrolled.body)")
                    #expect(try await ceremony.passkeyInfo(idToken) == nil, "nothing stored")
                default:
                    #expect(enrolled.status == 200, "\(enrolled.body)")
                    let signedIn = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 0))
                    #expect(signedIn.status == 200, "\(signedIn.body)")
                }
            }
        }
    }

    @Test func refusalsSayWhyAndStoreNothing() async throws {
        let store = InMemoryAuthStore()
        try await InProcessServer.with(configuration: Self.configuration(), store: store) { server in
            let ceremony = Ceremony(server: server)
            let (_, idToken) = try await server.verifiedUser("cy@example.com")
            let signIns = [try await ceremony.signInChallenge(), try await ceremony.signInChallenge(), try await ceremony.signInChallenge()]
            let registration = try await ceremony.enrollmentOptions(idToken)
            let output = try await ceremony.authenticator(registration, signIns: signIns)
            let rawID = try Self.hex(output.rawId)

            // A registration answering a sign-in's challenge: another ceremony's.
            let foreign = try await ceremony.authenticator((try await ceremony.signInChallenge(), registration.userHandle, [:]), signIns: [])
            #expect(
                Self.error(try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(foreign))) == "INVALID_AUTHENTICATOR_RESPONSE")
            // From an origin the server does not serve: the challenge is spent on the way.
            let elsewhere = try await ceremony.authenticator(
                try await ceremony.enrollmentOptions(idToken), signIns: [], origin: "http://localhost:6666")
            let refused = try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(elsewhere))
            #expect(Self.error(refused) == "INVALID_AUTHENTICATOR_RESPONSE" && refused.errorMessage?.contains("origin") == true, "\(refused.body)")
            // Bytes that are not base64, or missing.
            let garbled = try await ceremony.finalizeEnrollment(
                idToken, #"{"id":"AAAA","response":{"clientDataJSON":"%%%","attestationObject":"AA"}}"#)
            #expect(Self.error(garbled) == "INVALID_AUTHENTICATOR_RESPONSE" && garbled.errorMessage?.contains("clientDataJSON") == true)
            #expect(try await ceremony.passkeyInfo(idToken) == nil, "nothing stored")

            let enrolled = try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(output))
            #expect(enrolled.status == 200, "\(enrolled.body)")
            // Attestation none signs nothing of the client data: the same credential again, under
            // a new challenge, verifies, and is refused as registered.
            let again = try await ceremony.enrollmentOptions(idToken)
            #expect((again.options["excludeCredentials"] as? [[String: Any]])?.first?["id"] as? String == Data(rawID).base64EncodedString())
            #expect(again.userHandle == registration.userHandle, "one handle for all of a user's passkeys")
            let clientData = Array(
                #"{"type":"webauthn.create","challenge":"\#(Base64URL.encode(again.challenge))","origin":"\#(Self.origin)"}"#.utf8)
            let duplicate = try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(output, clientDataJSON: clientData))
            #expect(Self.error(duplicate) == "PASSKEY_EXISTS", "\(duplicate.body)")

            // Counters: the second assertion (2), then the first (1): the counter went back.
            #expect(try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 1)).status == 200)
            let cloned = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 0))
            #expect(Self.error(cloned) == "INVALID_AUTHENTICATOR_RESPONSE" && cloned.errorMessage?.contains("cloned") == true, "\(cloned.body)")
            // An assertion of a credential the server does not know.
            let unknown = try await ceremony.authenticator(
                try await ceremony.enrollmentOptions(try #require(enrolled.json["idToken"] as? String)),
                signIns: [try await ceremony.signInChallenge()])
            #expect(Self.error(try await ceremony.finalizeSignIn(try Ceremony.assertion(unknown, 0))) == "PASSKEY_ENROLLMENT_NOT_FOUND")
            // A challenge past its lifetime.
            server.clock.advance(by: 301)
            let late = try await ceremony.finalizeSignIn(try Ceremony.assertion(output, 2))
            #expect(Self.error(late) == "PASSKEY_CHALLENGE_TIMEOUT", "\(late.body)")
            #expect(store.passkey(credentialID: rawID)?.signCount == 2)

        }
    }

    @Test func deletePasskeyRemovesItButNotTheOnlyWayIntoAnAnonymousAccount() async throws {
        try await InProcessServer.with(configuration: Self.configuration()) { server in
            let ceremony = Ceremony(server: server)
            let anonymous = try await server.post(ServerProcess.signUpPath, #"{"returnSecureToken":true}"#)
            let idToken = try #require(anonymous.json["idToken"] as? String, "\(anonymous.body)")
            let output = try await ceremony.authenticator(try await ceremony.enrollmentOptions(idToken), signIns: [])
            let enrolled = try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(output), name: "")
            #expect(enrolled.status == 200, "\(enrolled.body)")
            #expect(try await ceremony.passkeyInfo(idToken)?.first?["name"] as? String == "Unnamed Passkey")
            let id = Data(try Self.hex(output.rawId)).base64EncodedString()
            let kept = try await server.post(ServerProcess.updatePath, #"{"idToken":"\#(idToken)","deletePasskey":["\#(id)"]}"#)
            #expect(Self.error(kept) == "OPERATION_NOT_ALLOWED" && kept.errorMessage?.contains("only way") == true, "\(kept.body)")
            #expect(try await ceremony.passkeyInfo(idToken)?.count == 1)

            let (_, passwordToken) = try await server.verifiedUser("di@example.com")
            let second = try await ceremony.authenticator(try await ceremony.enrollmentOptions(passwordToken), signIns: [])
            #expect(try await ceremony.finalizeEnrollment(passwordToken, try Ceremony.registration(second)).status == 200)
            let secondID = Base64URL.encode(try Self.hex(second.rawId))
            let removed = try await server.post(
                ServerProcess.updatePath, #"{"idToken":"\#(passwordToken)","deletePasskey":["\#(secondID)","\#(id)"]}"#)
            #expect(removed.status == 200, "\(removed.body)")
            #expect(removed.json["idToken"] is String && removed.json["refreshToken"] is String, "iOS signs in again with these")
            #expect(try await ceremony.passkeyInfo(passwordToken) == nil)
            #expect(try await ceremony.passkeyInfo(idToken)?.count == 1, "another user's passkey id is ignored, as an unknown one")

            // An administrator may remove even an anonymous account's only passkey.
            let uid = try #require(anonymous.json["localId"] as? String)
            let admin = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:update",
                #"{"localId":"\#(uid)","deletePasskey":["\#(id)"]}"#, headers: [("Authorization", "Bearer owner")])
            #expect(admin.status == 200, "\(admin.body)")
            #expect(try await ceremony.passkeyInfo(idToken) == nil)
        }
    }

    /// `totp account passkeys` (another process, on the same SQLite file) lists what the routes
    /// registered, removes it, and says why it cannot remove what is not there.
    @Test func theCommandLineListsAndRemovesWhatTheServerRegistered() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.path + "/otpkit.sqlite"
        let keyFile = directory.path + "/otpkit.key"
        let key = try SealingKey.generate(writingTo: keyFile)
        let store = try await SQLiteAuthStore.open(path: database, sealer: SecretSealer(current: key))
        try await InProcessServer.with(configuration: Self.configuration(), store: store) { server in
            let ceremony = Ceremony(server: server)
            let (uid, idToken) = try await server.verifiedUser("eve@example.com")
            let output = try await ceremony.authenticator(try await ceremony.enrollmentOptions(idToken), signIns: [])
            #expect(try await ceremony.finalizeEnrollment(idToken, try Ceremony.registration(output), name: "Eve's laptop").status == 200)
            let id = Base64URL.encode(try Self.hex(output.rawId))
            let store = ["--db", database, "--key-file", keyFile]

            let listed = try await ProcessRunner.run(try BuiltProduct.path("totp-enrollment"), ["account", "passkeys", uid, "--json"] + store)
            #expect(listed.status == 0, "\(listed.stderr)")
            let passkeys = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
            #expect(passkeys.count == 1)
            #expect(passkeys.first?["credentialId"] as? String == id && passkeys.first?["name"] as? String == "Eve's laptop")
            #expect(passkeys.first?["userVerified"] as? Bool == true && passkeys.first?["backupEligible"] as? Bool == true)
            #expect(passkeys.first?["createdAt"] as? Int == Int(server.clock.now()))
            #expect(!listed.stdout.contains("publicKey"), "never the key")
            let text = try await ProcessRunner.run(try BuiltProduct.path("totp-enrollment"), ["account", "passkeys", uid] + store)
            #expect(text.stdout.hasPrefix("\(id)  Eve's laptop  created ") && text.stdout.hasSuffix("last used never  synced\n"), "\(text.stdout)")

            let unknown = try await ProcessRunner.run(
                try BuiltProduct.path("totp-enrollment"), ["account", "passkeys", uid, "--remove", "AAAA"] + store)
            #expect(unknown.status == 1 && unknown.stderr.contains("has no passkey AAAA"), "\(unknown.stderr)")
            #expect(unknown.stderr.split(separator: "\n").count == 1)
            // A credential id may start with "-" (one in 64 do): it is taken as the value, not an option.
            let dashed = try await ProcessRunner.run(
                try BuiltProduct.path("totp-enrollment"), ["account", "passkeys", uid, "--remove", "-AAA"] + store)
            #expect(dashed.status == 1 && dashed.stderr.contains("has no passkey -AAA"), "\(dashed.stderr)")
            let garbled = try await ProcessRunner.run(
                try BuiltProduct.path("totp-enrollment"), ["account", "passkeys", uid, "--remove", "%%"] + store)
            #expect(garbled.status == 64 && garbled.stderr.contains("is not a credential id"), "\(garbled.stderr)")
            let removed = try await ProcessRunner.run(try BuiltProduct.path("totp-enrollment"), ["account", "passkeys", uid, "--remove", id] + store)
            #expect(removed.status == 0 && removed.stdout == "removed passkey \(id) of \(uid)\n", "\(removed.stderr)")
            #expect(try await ceremony.passkeyInfo(idToken) == nil, "the server finds it gone")
        }
        try await store.close()
    }

    /// OTPKit's extension: a passkey as the second factor through `mfaEnrollment` and `mfaSignIn`,
    /// listed in `mfaInfo` only to a client that says it knows the kind.
    @Test func aPasskeyFactorEnrollsAndCompletesAPasswordSignInThroughTheMultiFactorEndpoints() async throws {
        try await InProcessServer.with(configuration: Self.configuration()) { server in
            let ceremony = Ceremony(server: server)
            let (_, idToken) = try await server.verifiedUser("gil@example.com")
            let knows = [("X-OTPKit-Factor-Kinds", "totp, webauthn")]
            let started = try await ceremony.start("mfaEnrollment:start", #"{"idToken":"\#(idToken)","webauthnEnrollmentInfo":{}}"#)
            let options = try #require((started["webauthnSessionInfo"] as? [String: Any])?["credentialCreationOptions"] as? [String: Any])
            let selection = try #require(options["authenticatorSelection"] as? [String: Any])
            #expect(selection["residentKey"] as? String == "discouraged" && selection["userVerification"] as? String == "preferred")
            let user = try #require(options["user"] as? [String: Any])
            let registration = (try Ceremony.standard(options["challenge"]), try Ceremony.standard(user["id"]), options)
            let key = try await ceremony.authenticator(registration, signIns: [], verified: false)
            let enrolled = try await server.post(
                ServerProcess.v2("mfaEnrollment:finalize"),
                #"{"idToken":"\#(idToken)","displayName":"Key","webauthnVerificationInfo":{"authenticatorRegistrationResponse":\#(try Ceremony.registration(key))}}"#
            )
            #expect(enrolled.status == 200, "\(enrolled.body)")
            let enrolledToken = try #require(enrolled.json["idToken"] as? String)

            let hidden = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(enrolledToken)"}"#)
            #expect((hidden.json["users"] as? [[String: Any]])?.first?["mfaInfo"] == nil, "not listed to Firebase's SDKs: \(hidden.body)")
            let listed = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(enrolledToken)"}"#, headers: knows)
            let entry = try #require(((listed.json["users"] as? [[String: Any]])?.first?["mfaInfo"] as? [[String: Any]])?.first, "\(listed.body)")
            #expect(entry["webauthnInfo"] != nil && entry["displayName"] as? String == "Key")
            let enrollmentID = try #require(entry["mfaEnrollmentId"] as? String)
            #expect(try await ceremony.passkeyInfo(enrolledToken) == nil, "a second factor is no passkey that signs in alone")

            let password = #"{"email":"gil@example.com","password":"long enough","returnSecureToken":true}"#
            let pending = try await server.post(ServerProcess.signInPath, password, headers: knows)
            let credential = try #require(pending.json["mfaPendingCredential"] as? String, "\(pending.body)")
            #expect((pending.json["mfaInfo"] as? [[String: Any]])?.first?["mfaEnrollmentId"] as? String == enrollmentID)
            let request = try #require(
                (try await ceremony.start(
                    "mfaSignIn:start", #"{"mfaPendingCredential":"\#(credential)","mfaEnrollmentId":"\#(enrollmentID)","webauthnSignInInfo":{}}"#)[
                        "webauthnResponseInfo"] as? [String: Any])?["credentialRequestOptions"] as? [String: Any])
            #expect(
                (request["allowCredentials"] as? [[String: Any]])?.map { $0["id"] as? String } == [
                    Data(try Self.hex(key.rawId)).base64EncodedString()
                ])
            let assertion = try await ceremony.authenticator(
                registration, signIns: [try Ceremony.standard(request["challenge"])], verified: false, reusing: key)
            let finalized = try await server.post(
                ServerProcess.v2("mfaSignIn:finalize"),
                #"{"mfaPendingCredential":"\#(credential)","mfaEnrollmentId":"\#(enrollmentID)","webauthnVerificationInfo":{"authenticatorAuthenticationResponse":\#(try Ceremony.assertion(assertion, 0))}}"#
            )
            #expect(finalized.status == 200, "\(finalized.body)")
            let claims = try await server.verifiedClaims(try #require(finalized.json["idToken"] as? String))
            #expect(claims.firebase.signInSecondFactor == "webauthn" && claims.firebase.secondFactorIdentifier == enrollmentID)
        }
    }

    @Test func withoutARelyingPartyPasskeysAreNotEnabled() async throws {
        try await InProcessServer.with { server in
            let answer = try await server.post(ServerProcess.v2("passkeySignIn:start"), "{}")
            #expect(Self.error(answer) == "PASSKEY_NOT_ENABLED", "\(answer.body)")
            #expect(answer.status == 400)
        }
    }
}
