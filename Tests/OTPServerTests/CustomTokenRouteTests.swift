import CryptoExtras
import Foundation
import JWTKit
import OTPAuthentication
import OTPSealing
import OTPServer
import Testing

/// `accounts:signInWithCustomToken` (iOS `verifyCustomToken`) with tokens minted here as
/// firebase-admin mints them: RS256 under a service account's key, or the emulator's unsigned forms.
@Suite struct CustomTokenRouteTests {
    static let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo-key"
    static let pathV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyCustomToken?key=demo-key"
    static let email = "minter@demo-otpkit.iam.gserviceaccount.com"

    /// A service account's key and the signer the server is given for it.
    struct ServiceAccount {
        let kid: String
        let privateKey: _RSA.Signing.PrivateKey
        var signer: CustomTokenSigner {
            get throws {
                CustomTokenSigner(email: CustomTokenRouteTests.email, keys: [kid: try JWTKit.Insecure.RSA.PublicKey(backing: privateKey.publicKey)])
            }
        }

        init(kid: String = "key-1") throws {
            self.kid = kid
            privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        }

        /// A token as `create_custom_token` makes it, with `changes` applied to its claims.
        func token(uid: String, at time: Int64, _ changes: (inout [String: Any]) -> Void = { _ in }) throws -> String {
            var claims: [String: Any] = [
                "iss": CustomTokenRouteTests.email, "sub": CustomTokenRouteTests.email, "aud": CustomTokenVerifier.audience, "uid": uid,
                "iat": time, "exp": time + 3600,
            ]
            changes(&claims)
            return try CustomTokenRouteTests.signed(claims, kid: kid, key: privateKey)
        }
    }

    static func signed(_ claims: [String: Any], kid: String, key: _RSA.Signing.PrivateKey) throws -> String {
        let header = Base64URL.encode(try JSONSerialization.data(withJSONObject: ["alg": "RS256", "typ": "JWT", "kid": kid]))
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        let signature = try key.signature(for: Data((header + "." + payload).utf8), padding: .insecurePKCS1v1_5)
        return header + "." + payload + "." + Base64URL.encode(signature.rawRepresentation)
    }

    static func unsigned(_ claims: [String: Any]) throws -> String {
        let header = Base64URL.encode(try JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"]))
        return header + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims)) + "."
    }

    static func body(_ token: String) -> String { #"{"token":"\#(token)","returnSecureToken":true}"# }

    @Test func aSignedTokenSignsInItsUserCreatingTheAccountOnce() async throws {
        let account = try ServiceAccount()
        try await InProcessServer.with(apiKeys: ["demo-key"], customTokenSigners: [try account.signer]) { server in
            let first = try await server.post(Self.path, Self.body(try account.token(uid: "ada-1", at: server.clock.now())))
            #expect(first.status == 200, "\(first.body)")
            #expect(first.json["isNewUser"] as? Bool == true)
            #expect(first.json["expiresIn"] as? String == "3600")
            #expect(first.json["refreshToken"] as? String != nil)
            let claims = try await server.verifiedClaims(try #require(first.json["idToken"] as? String))
            #expect(claims.subject == "ada-1")
            #expect(claims.firebase.signInProvider == "custom")
            let again = try await server.post(Self.pathV3, Self.body(try account.token(uid: "ada-1", at: server.clock.now())))
            #expect(again.status == 200, "\(again.body)")
            #expect(again.json["isNewUser"] as? Bool == false, "the account exists now")
            #expect(try await server.service.administration.accountDetails(id: "ada-1") != nil)
        }
    }

    @Test func aUserWithASecondFactorIsNotAskedForIt() async throws {
        let account = try ServiceAccount()
        try await InProcessServer.with(customTokenSigners: [try account.signer]) { server in
            let (uid, idToken) = try await server.verifiedUser("bo@example.com")
            _ = try await server.enrollTOTP(idToken)
            let signedIn = try await server.post(Self.path, Self.body(try account.token(uid: uid, at: server.clock.now())))
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.json["mfaPendingCredential"] == nil)
            let claims = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String))
            #expect(claims.firebase.signInSecondFactor == nil)
            // Such a session cannot change the account's credentials: that needs a second factor.
            let changed = try await server.post(
                "/identitytoolkit.googleapis.com/v1/accounts:update?key=demo-key",
                #"{"idToken":"\#(try #require(signedIn.json["idToken"] as? String))","password":"another long one"}"#)
            #expect(changed.errorMessage?.hasPrefix("CREDENTIAL_TOO_OLD_LOGIN_AGAIN") == true, "\(changed.body)")
        }
    }

    @Test(arguments: [
        ("an audience of another service", "audience"),
        ("a lifetime over an hour", "at most 3600"),
        ("an issuer other than the key's account", "iss and sub"),
        ("an expired token", "expired"),
        ("a token from the future", "future"),
        ("a tenant", "no tenants"),
        ("no uid", "names no user"),
    ])
    func claimsThatDoNotHoldAreRefused(_ change: String, _ expected: String) async throws {
        let account = try ServiceAccount()
        try await InProcessServer.with(apiKeys: ["demo-key"], customTokenSigners: [try account.signer]) { server in
            let now = server.clock.now()
            let token = try account.token(uid: "cy", at: now) { claims in
                switch change {
                case "an audience of another service": claims["aud"] = "https://example.com"
                case "a lifetime over an hour": claims["exp"] = now + 3601
                case "an issuer other than the key's account": claims["iss"] = "other@example.iam.gserviceaccount.com"
                case "an expired token":
                    claims["iat"] = now - 3600 - 120
                    claims["exp"] = now - 120
                case "a token from the future":
                    claims["iat"] = now + 600
                    claims["exp"] = now + 1200
                case "a tenant": claims["tenant_id"] = "tenant-1"
                default: claims["uid"] = nil
                }
            }
            let refused = try await server.post(Self.path, Self.body(token))
            #expect(refused.status == 400, "\(refused.body)")
            #expect(refused.errorMessage?.hasPrefix("INVALID_CUSTOM_TOKEN : ") == true, "\(change): \(refused.body)")
            #expect(refused.errorMessage?.contains(expected) == true, "\(change): \(refused.body)")
            #expect(try await server.service.administration.accountDetails(id: "cy") == nil, "no account was made")
        }
    }

    @Test func developerClaimsRideEveryTokenOfTheSessionOverTheAccountsOwn() async throws {
        let account = try ServiceAccount()
        try await InProcessServer.with(customTokenSigners: [try account.signer]) { server in
            let token = try account.token(uid: "dev-1", at: server.clock.now()) { $0["claims"] = ["premium": true, "role": "staff"] }
            let signedIn = try await server.post(Self.path, Self.body(token))
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let first = try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String))
            #expect(first.customClaims == ["premium": .bool(true), "role": .string("staff")])
            #expect(first.subject == "dev-1" && first.firebase.signInProvider == "custom", "the token's own claims stay its own")

            // The account's claims join them; where both name a claim, the session's wins.
            let set = try await server.send(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:update",
                #"{"localId":"dev-1","customAttributes":"{\"role\":\"admin\",\"tier\":1}"}"#, bearer: "owner")
            #expect(set.status == 200, "\(set.body)")
            server.clock.advance(by: 3500)
            let refreshed = try await server.refresh(try #require(signedIn.json["refreshToken"] as? String))
            let later = try await server.verifiedClaims(try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)"))
            #expect(later.customClaims == ["premium": .bool(true), "role": .string("staff"), "tier": .integer(1)])

            // Another sign-in of the same account, without developer claims, has the account's alone.
            let plain = try await server.post(Self.path, Self.body(try account.token(uid: "dev-1", at: server.clock.now())))
            let plainClaims = try await server.verifiedClaims(try #require(plain.json["idToken"] as? String, "\(plain.body)"))
            #expect(plainClaims.customClaims == ["role": .string("admin"), "tier": .integer(1)])
        }
    }

    @Test(arguments: [
        (#"{"firebase":{"sign_in_provider":"password"}}"#, "FORBIDDEN_CLAIM : firebase"),
        (#"{"auth_time":0}"#, "FORBIDDEN_CLAIM : auth_time"),
        (#"{"blob":"\#(String(repeating: "x", count: 1000))"}"#, "CLAIMS_TOO_LARGE : "),
        (#"["premium"]"#, "INVALID_CLAIMS : "),
    ])
    func developerClaimsThatBreakTheRulesOfCustomClaimsAreRefused(_ claims: String, _ expected: String) async throws {
        let account = try ServiceAccount()
        try await InProcessServer.with(apiKeys: ["demo-key"], customTokenSigners: [try account.signer]) { server in
            let value = try JSONSerialization.jsonObject(with: Data(claims.utf8))
            let token = try account.token(uid: "eve", at: server.clock.now()) { $0["claims"] = value }
            let refused = try await server.post(Self.path, Self.body(token))
            #expect(refused.status == 400, "\(refused.body)")
            #expect(refused.errorMessage?.hasPrefix(expected) == true, "\(refused.body)")
            #expect(try await server.service.administration.accountDetails(id: "eve") == nil, "no account was made")
        }
    }

    @Test func keysTheServerDoesNotTrustAreRefused() async throws {
        let trusted = try ServiceAccount()
        let stranger = try ServiceAccount()
        let unknownKid = try ServiceAccount(kid: "key-2")
        try await InProcessServer.with(apiKeys: ["demo-key"], customTokenSigners: [try trusted.signer]) { server in
            let now = server.clock.now()
            let forged = try await server.post(Self.path, Self.body(try stranger.token(uid: "dee", at: now)))
            #expect(forged.errorMessage?.contains("signature does not verify") == true, "same kid, another key: \(forged.body)")
            let unknown = try await server.post(Self.path, Self.body(try unknownKid.token(uid: "dee", at: now)))
            #expect(unknown.errorMessage?.contains("key id") == true, "\(unknown.body)")
            let claims: [String: Any] = ["aud": CustomTokenVerifier.audience, "uid": "dee"]
            let unsigned = try await server.post(Self.path, Self.body(try Self.unsigned(claims)))
            #expect(unsigned.errorMessage?.contains("only an emulator") == true, "a production server takes no unsigned token: \(unsigned.body)")
            let missing = try await server.post(Self.path, #"{"returnSecureToken":true}"#)
            #expect(missing.errorMessage?.hasPrefix("MISSING_CUSTOM_TOKEN : ") == true, "\(missing.body)")
            let tenant = try await server.post(Self.path, #"{"token":"x","tenantId":"t-1"}"#)
            #expect(tenant.errorMessage?.hasPrefix("TENANT_ID_MISMATCH : ") == true, "\(tenant.body)")
            #expect(try await server.service.administration.accountDetails(id: "dee") == nil)
        }
    }

    @Test func disabledAccountsAndUnusableIDsAreRefused() async throws {
        let account = try ServiceAccount()
        try await InProcessServer.with(apiKeys: ["demo-key"], customTokenSigners: [try account.signer]) { server in
            _ = try await server.service.administration.createAccount(
                id: "eve", email: nil, password: nil, displayName: nil, photoURL: nil, isEmailVerified: false, isDisabled: true)
            let disabled = try await server.post(Self.path, Self.body(try account.token(uid: "eve", at: server.clock.now())))
            #expect(disabled.errorMessage?.hasPrefix("USER_DISABLED") == true, "\(disabled.body)")
            let long = try await server.post(Self.path, Self.body(try account.token(uid: String(repeating: "u", count: 129), at: server.clock.now())))
            #expect(long.errorMessage?.hasPrefix("INVALID_CUSTOM_TOKEN : ") == true, "\(long.body)")
        }
    }

    @Test func withoutSignersTheEndpointSaysHowToConfigureThem() async throws {
        try await InProcessServer.with(apiKeys: ["demo-key"], customTokenSigners: nil) { server in
            let refused = try await server.post(Self.path, Self.body("anything"))
            #expect(refused.errorMessage?.contains("--custom-token-signer") == true, "\(refused.body)")
        }
    }

    @Test func theEmulatorTakesItsUnsignedFormsToo() async throws {
        try await InProcessServer.with { server in
            let jwt = try Self.unsigned([
                "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com", "aud": CustomTokenVerifier.audience,
                "uid": "fay",
            ])
            let signedIn = try await server.post(Self.path, Self.body(jwt))
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(try await server.verifiedClaims(try #require(signedIn.json["idToken"] as? String)).subject == "fay")
            let json = try await server.post(Self.path, #"{"token":"{\"uid\":\"gus\"}"}"#)
            #expect(json.status == 200, "the emulator's JSON form: \(json.body)")
            let wrongAudience = try await server.post(Self.path, Self.body(try Self.unsigned(["aud": "https://example.com", "uid": "hal"])))
            #expect(wrongAudience.errorMessage?.contains("audience") == true, "\(wrongAudience.body)")
        }
    }
}

@Suite struct CustomTokenSignerTests {
    @Test(arguments: [
        ("[]", "not a JSON object"),
        ("{}", "holds no certificate"),
        (#"{"k":1}"#, "not a string"),
        (#"{"k":"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"}"#, "not an RSA certificate"),
    ])
    func documentsThatAreNoCertificatesAreRefusedSayingWhy(_ document: String, _ expected: String) {
        #expect {
            try CustomTokenSigner(email: CustomTokenRouteTests.email, certificatesJSON: Data(document.utf8))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    @Test func anAddressThatIsNoneAndAKeyIDTwiceAreRefused() async throws {
        #expect(throws: CustomTokenSignerError.invalidEmail("minter")) {
            try CustomTokenSigner(email: "minter", certificatesJSON: Data("{}".utf8))
        }
        let account = try CustomTokenRouteTests.ServiceAccount()
        await #expect(throws: CustomTokenSignerError.duplicateKeyID("key-1")) {
            _ = try await CustomTokenVerifier(signers: [try account.signer, try account.signer], acceptsUnsigned: false, clock: { 0 })
        }
    }
}
