import Foundation
import OTPTestUtilities
import Testing

/// The client endpoints through the built executable, with requests shaped as the JS SDK (v1
/// paths) and the iOS SDK (v3 paths) send them.
@Suite struct ClientEndpointTests {
    static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-key"
    static let signUpV3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser?key=demo-key"
    static let signIn = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-key"
    static let verifyPassword = "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword?key=demo-key"
    static let lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=demo-key"
    static let getAccountInfo = "/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo?key=demo-key"
    static let token = "/securetoken.googleapis.com/v1/token?key=demo-key"

    @Test func signUpSignInLookupAndRefusals() async throws {
        try await InProcessServer.with { server in
            let ready = try await server.get("/")
            #expect(ready.status == 200)

            // JS: createUserWithEmailAndPassword.
            let created = try await server.post(
                Self.signUp, #"{"returnSecureToken":true,"email":"Alice@Example.com","password":"correct horse","clientType":"CLIENT_TYPE_WEB"}"#)
            #expect(created.status == 200, "\(created.body)")
            #expect(created.json["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
            #expect(created.json["email"] as? String == "alice@example.com")
            #expect(created.json["expiresIn"] as? String == "3600")
            let uid = try #require(created.json["localId"] as? String)
            let token = try #require(created.json["idToken"] as? String)
            #expect(created.json.keys.contains("displayName") == false)

            // The same address again, through iOS's v3 name.
            let duplicate = try await server.post(Self.signUpV3, #"{"email":"alice@example.com","password":"another one","returnSecureToken":true}"#)
            #expect(duplicate.status == 400)
            #expect(duplicate.errorMessage?.hasPrefix("EMAIL_EXISTS : ") == true, "\(duplicate.body)")
            #expect(duplicate.json["error"].flatMap { ($0 as? [String: Any])?["code"] as? Int } == 400)

            let weak = try await server.post(Self.signUp, #"{"email":"bob@example.com","password":"123","returnSecureToken":true}"#)
            #expect(weak.errorMessage?.hasPrefix("WEAK_PASSWORD : ") == true, "\(weak.body)")
            let noPassword = try await server.post(Self.signUp, #"{"email":"bob@example.com","returnSecureToken":true}"#)
            #expect(noPassword.errorMessage?.hasPrefix("MISSING_PASSWORD : ") == true, "\(noPassword.body)")
            let badEmail = try await server.post(Self.signUp, #"{"email":"not an address","password":"long enough"}"#)
            #expect(badEmail.errorMessage?.hasPrefix("INVALID_EMAIL : ") == true, "\(badEmail.body)")

            // iOS: signIn(withEmail:password:).
            let signedIn = try await server.post(
                Self.verifyPassword, #"{"email":"alice@example.com","password":"correct horse","returnSecureToken":true}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.json["registered"] as? Bool == true)
            #expect(signedIn.json["localId"] as? String == uid)
            #expect(signedIn.json["expiresIn"] as? String == "3600")
            #expect(signedIn.json.keys.contains("mfaPendingCredential") == false)

            let wrong = try await server.post(Self.signIn, #"{"email":"alice@example.com","password":"wrong horse","returnSecureToken":true}"#)
            #expect(wrong.status == 400)
            #expect(wrong.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "\(wrong.body)")
            let unknown = try await server.post(Self.signIn, #"{"email":"nobody@example.com","password":"wrong horse"}"#)
            #expect(unknown.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS : ") == true, "\(unknown.body)")
            let missingEmail = try await server.post(Self.signIn, #"{"password":"wrong horse"}"#)
            #expect(missingEmail.errorMessage?.hasPrefix("MISSING_EMAIL : ") == true, "\(missingEmail.body)")
            let missingPassword = try await server.post(Self.signIn, #"{"email":"alice@example.com"}"#)
            #expect(missingPassword.errorMessage?.hasPrefix("MISSING_PASSWORD : ") == true, "\(missingPassword.body)")

            // The token the server issued looks its user up, at both paths.
            for path in [Self.lookup, Self.getAccountInfo] {
                let found = try await server.post(path, #"{"idToken":"\#(token)"}"#)
                #expect(found.status == 200, "\(found.body)")
                let users = try #require(found.json["users"] as? [[String: Any]])
                #expect(users.count == 1)
                #expect(users.first?["localId"] as? String == uid)
                #expect(users.first?["email"] as? String == "alice@example.com")
                #expect(users.first?["passwordHash"] as? String == "UkVEQUNURUQ=")
                #expect(users.first?["createdAt"] is String)
            }

            // A token whose payload was changed (another uid), or that is not a JWT at all.
            let parts = token.split(separator: ".").map(String.init)
            var payload = try #require(Self.base64URLDecode(parts[1]))
            payload = payload.replacingOccurrences(of: uid, with: "someone-else")
            let forged = [parts[0], Self.base64URLEncode(payload), parts[2]].joined(separator: ".")
            for bad in [forged, "not-a-token", parts[0] + "." + parts[1] + "."] {
                let refused = try await server.post(Self.lookup, #"{"idToken":"\#(bad)"}"#)
                #expect(refused.status == 400)
                #expect(refused.errorMessage?.hasPrefix("INVALID_ID_TOKEN : ") == true, "\(refused.body)")
            }
            let noToken = try await server.post(Self.lookup, "{}")
            #expect(noToken.errorMessage?.hasPrefix("MISSING_ID_TOKEN : ") == true, "\(noToken.body)")

            // Refresh as JS does (a form, snake_case) and as iOS does (JSON, camelCase).
            let refreshToken = try #require(signedIn.json["refreshToken"] as? String)
            #expect(created.json["refreshToken"] is String)
            let refreshed = try await server.post(
                Self.token, "grant_type=refresh_token&refresh_token=" + refreshToken, contentType: "application/x-www-form-urlencoded")
            #expect(refreshed.status == 200, "\(refreshed.body)")
            #expect(refreshed.json["expires_in"] as? String == "3600")
            #expect(refreshed.json["token_type"] as? String == "Bearer")
            #expect(refreshed.json["user_id"] as? String == uid)
            #expect(refreshed.json["refresh_token"] as? String == refreshToken)
            let refreshedToken = try #require(refreshed.json["id_token"] as? String)
            #expect(refreshed.json["access_token"] as? String == refreshedToken)
            let refreshedLookup = try await server.post(Self.lookup, #"{"idToken":"\#(refreshedToken)"}"#)
            #expect(refreshedLookup.status == 200, "\(refreshedLookup.body)")
            let iOSRefresh = try await server.post(Self.token, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            #expect(iOSRefresh.status == 200, "\(iOSRefresh.body)")
            let refreshParts = refreshToken.split(separator: ".").map(String.init)
            let otherUser = [refreshParts[0], refreshParts[1], Self.base64URLEncode("someone-else"), refreshParts[3]].joined(separator: ".")
            for (body, code) in [
                (#"{"grantType":"refresh_token","refreshToken":"\#(otherUser)"}"#, "INVALID_REFRESH_TOKEN"),
                (#"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)x"}"#, "INVALID_REFRESH_TOKEN"),
                (#"{"grantType":"refresh_token"}"#, "MISSING_REFRESH_TOKEN"),
                (#"{"refreshToken":"\#(refreshToken)"}"#, "MISSING_GRANT_TYPE"),
                (#"{"grantType":"password","refreshToken":"\#(refreshToken)"}"#, "INVALID_GRANT_TYPE"),
            ] {
                let refused = try await server.post(Self.token, body)
                #expect(refused.status == 400, "\(refused.body)")
                #expect(refused.errorMessage?.hasPrefix(code + " : ") == true, "\(refused.body)")
            }

            // Anonymous sign-up: an empty request.
            let anonymous = try await server.post(Self.signUp, #"{"returnSecureToken":true}"#)
            #expect(anonymous.status == 200, "\(anonymous.body)")
            #expect(anonymous.json.keys.contains("email") == false)
            let anonymousToken = try #require(anonymous.json["idToken"] as? String)
            let anonymousClaims = try #require(Self.base64URLDecode(anonymousToken.split(separator: ".")[1]))
            #expect(anonymousClaims.contains(#""sign_in_provider":"anonymous""#))
        }
    }

    @Test func aRefreshTokenEndsWithItsSession() async throws {
        try await InProcessServer.with { server in
            let created = try await server.post(Self.signUp, #"{"email":"ivy@example.com","password":"long enough"}"#)
            let first = try #require(created.json["refreshToken"] as? String, "\(created.body)")
            // Twenty more sign-ins: the user's session cap (20) pushes the first session out.
            var latest = ""
            for _ in 0..<20 {
                let signedIn = try await server.post(Self.signIn, #"{"email":"ivy@example.com","password":"long enough"}"#)
                latest = try #require(signedIn.json["refreshToken"] as? String, "\(signedIn.body)")
            }
            let ended = try await server.post(Self.token, #"{"grantType":"refresh_token","refreshToken":"\#(first)"}"#)
            #expect(ended.status == 400)
            #expect(ended.errorMessage?.hasPrefix("TOKEN_EXPIRED : ") == true, "\(ended.body)")
            let current = try await server.post(Self.token, #"{"grantType":"refresh_token","refreshToken":"\#(latest)"}"#)
            #expect(current.status == 200, "\(current.body)")
        }
    }

    @Test func badInputIsA400AndChangesNothing() async throws {
        try await InProcessServer.with(apiKeys: ["demo-key"]) { server in
            let cases: [(String, String)] = [
                (#"{"email":"carol@example.com","password":"#, "INVALID_ARGUMENT : "),  // malformed JSON
                (#"{"email":"carol@example.com","password":12345678}"#, "INVALID_ARGUMENT : "),  // a number for a string
                (#"["carol@example.com"]"#, "INVALID_ARGUMENT : "),  // not an object
                (#"{"email":true}"#, "INVALID_ARGUMENT : "),
                (
                    #"{"email":"carol@example.com","password":"long enough","padding":""# + String(repeating: "x", count: 70_000) + #""}"#,
                    "INVALID_ARGUMENT : "
                ),  // over the size limit
            ]
            for (body, prefix) in cases {
                let answer = try await server.post(Self.signUp, body)
                #expect(answer.status == 400, "\(answer.body.prefix(300))")
                #expect(answer.errorMessage?.hasPrefix(prefix) == true, "\(answer.body.prefix(300))")
                #expect(!answer.body.contains("12345678"), "an error repeats the input")
            }
            // None of them made an account: the address is still free.
            let created = try await server.post(Self.signUp, #"{"email":"carol@example.com","password":"long enough"}"#)
            #expect(created.status == 200, "\(created.body)")

            // Without --emulator the API key is checked.
            let missing = try await server.post("/identitytoolkit.googleapis.com/v1/accounts:signUp", "{}")
            #expect(missing.status == 403)
            #expect(missing.errorMessage?.hasPrefix("PERMISSION_DENIED : ") == true, "\(missing.body)")
            #expect((missing.json["error"] as? [String: Any])?["status"] as? String == "PERMISSION_DENIED")
            let wrongKey = try await server.post("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=other", "{}")
            #expect(wrongKey.status == 400)
            #expect(wrongKey.body.contains("keyInvalid"), "\(wrongKey.body)")
            let header = try await server.post("/identitytoolkit.googleapis.com/v1/accounts:signUp", "{}", headers: [("X-Goog-Api-Key", "demo-key")])
            #expect(header.status == 200, "\(header.body)")

            // And admin calls are refused, `Bearer owner` or not.
            let admin = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts", #"{"email":"dave@example.com"}"#,
                headers: [("Authorization", "Bearer owner")])
            #expect(admin.status == 401, "\(admin.body)")
        }
    }

    static func base64URLDecode(_ text: some StringProtocol) -> String? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) }
    }

    static func base64URLEncode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
