import Foundation
import OTPServer
import Testing

/// Email actions through the REST API as the SDKs call them (JS v1 paths, iOS v3 names) under the
/// emulator, with each link read back from `GET /emulator/v1/projects/{p}/oobCodes` as a test
/// suite written for Firebase's Auth emulator reads it.
@Suite("Email actions through the REST API")
struct EmailActionRouteTests {
    static let v1 = "/identitytoolkit.googleapis.com/v1/"
    static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static func v1(_ name: String) -> String { v1 + name + ServerProcess.key }
    static func v3(_ name: String) -> String { v3 + name + ServerProcess.key }

    /// The emulator's list of links: the last one sent to `email`, with its code.
    static func lastLink(_ server: InProcessServer, to email: String) async throws -> (code: String, link: String, requestType: String) {
        let listed = try await server.get("/emulator/v1/projects/\(server.projectID)/oobCodes")
        try #require(listed.status == 200, "\(listed.body)")
        let entries = try #require(listed.json["oobCodes"] as? [[String: Any]], "\(listed.body)")
        let entry = try #require(entries.last { $0["email"] as? String == email }, "no link for \(email): \(listed.body)")
        return (
            try #require(entry["oobCode"] as? String), try #require(entry["oobLink"] as? String), try #require(entry["requestType"] as? String)
        )
    }

    static func signUp(_ server: InProcessServer, _ email: String, password: String = "long enough") async throws -> (idToken: String, uid: String) {
        let created = try await server.post(v1("accounts:signUp"), #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#)
        return (try #require(created.json["idToken"] as? String, "\(created.body)"), try #require(created.json["localId"] as? String))
    }

    @Test("a password reset: sendOobCode, the code inspected, then used with a new password once; the old tokens die with the old password")
    func passwordReset() async throws {
        try await InProcessServer.with { server in
            let (_, uid) = try await Self.signUp(server, "ada@example.com")
            let signedIn = try await server.post(
                ServerProcess.signInPath, #"{"email":"ada@example.com","password":"long enough","returnSecureToken":true}"#)
            let refreshToken = try #require(signedIn.json["refreshToken"] as? String)
            let sent = try await server.post(
                Self.v1("accounts:sendOobCode"),
                #"{"requestType":"PASSWORD_RESET","email":"Ada@Example.com","continueUrl":"https://app.example.com/after?reset=1"}"#)
            #expect(sent.status == 200, "\(sent.body)")
            #expect(sent.json["email"] as? String == "ada@example.com" && sent.json["oobCode"] == nil, "a client never sees the code: \(sent.body)")
            let (code, link, requestType) = try await Self.lastLink(server, to: "ada@example.com")
            #expect(requestType == "PASSWORD_RESET")
            let items = try #require(URLComponents(string: link)?.queryItems)
            #expect(items.first { $0.name == "mode" }?.value == "resetPassword" && items.first { $0.name == "oobCode" }?.value == code)
            #expect(items.first { $0.name == "continueUrl" }?.value == "https://app.example.com/after?reset=1", "\(link)")

            let inspected = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(code)"}"#)
            #expect(inspected.json["requestType"] as? String == "PASSWORD_RESET" && inspected.json["email"] as? String == "ada@example.com")
            let weak = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(code)","newPassword":"123"}"#)
            #expect(weak.errorMessage?.hasPrefix("WEAK_PASSWORD") == true, "\(weak.body)")
            let reset = try await server.post(Self.v3("resetPassword"), #"{"oobCode":"\#(code)","newPassword":"a new password"}"#)
            #expect(reset.status == 200 && reset.json["email"] as? String == "ada@example.com", "\(reset.body)")
            let again = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(code)","newPassword":"yet another one"}"#)
            #expect(again.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(again.body)")

            let old = try await server.post(ServerProcess.signInPath, #"{"email":"ada@example.com","password":"long enough"}"#)
            #expect(old.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(old.body)")
            let new = try await server.post(ServerProcess.signInPath, #"{"email":"ada@example.com","password":"a new password"}"#)
            #expect(new.json["localId"] as? String == uid, "\(new.body)")
            let refreshed = try await server.refresh(refreshToken)
            #expect(refreshed.status == 400, "a refresh token from before the reset: \(refreshed.body)")
        }
    }

    @Test("an address verification and a change of address, applied with accounts:update and an oobCode")
    func verificationAndChange() async throws {
        try await InProcessServer.with { server in
            let (idToken, uid) = try await Self.signUp(server, "bob@example.com")
            let sent = try await server.post(Self.v1("accounts:sendOobCode"), #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#)
            #expect(sent.json["email"] as? String == "bob@example.com", "\(sent.body)")
            let verify = try await Self.lastLink(server, to: "bob@example.com")
            #expect(verify.requestType == "VERIFY_EMAIL")
            let applied = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(verify.code)"}"#)
            #expect(applied.json["emailVerified"] as? Bool == true && applied.json["localId"] as? String == uid, "\(applied.body)")
            #expect(try await server.adminUser(uid)["emailVerified"] as? Bool == true)

            let change = try await server.post(
                Self.v3("getOobConfirmationCode"),
                #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob.new@example.com"}"#)
            #expect(change.status == 200, "\(change.body)")
            let link = try await Self.lastLink(server, to: "bob.new@example.com")
            #expect(link.requestType == "VERIFY_AND_CHANGE_EMAIL")
            let inspected = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(link.code)"}"#)
            #expect(inspected.json["newEmail"] as? String == "bob.new@example.com" && inspected.json["email"] as? String == "bob@example.com")
            let moved = try await server.post(Self.v3("setAccountInfo"), #"{"oobCode":"\#(link.code)"}"#)
            #expect(moved.json["email"] as? String == "bob.new@example.com" && moved.json["emailVerified"] as? Bool == true, "\(moved.body)")
            let user = try await server.adminUser(uid)
            #expect(user["email"] as? String == "bob.new@example.com")
            let reused = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(link.code)"}"#)
            #expect(reused.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(reused.body)")
        }
    }

    @Test(
        "an email link signs in a new address (isNewUser), then the same account; the address must be the link's; an expired code is EXPIRED_OOB_CODE"
    )
    func emailLinkSignIn() async throws {
        try await InProcessServer.with { server in
            let send =
                #"{"requestType":"EMAIL_SIGNIN","email":"cat@example.com","continueUrl":"https://app.example.com/finish","canHandleCodeInApp":true}"#
            #expect(try await server.post(Self.v1("accounts:sendOobCode"), send).status == 200)
            let first = try await Self.lastLink(server, to: "cat@example.com")
            #expect(first.requestType == "EMAIL_SIGNIN" && first.link.contains("mode=signIn"))
            let inspected = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(first.code)"}"#)
            #expect(inspected.json["requestType"] as? String == "EMAIL_SIGNIN" && inspected.json["email"] == nil, "\(inspected.body)")
            let wrong = try await server.post(Self.v1("accounts:signInWithEmailLink"), #"{"email":"dog@example.com","oobCode":"\#(first.code)"}"#)
            #expect(wrong.errorMessage?.hasPrefix("INVALID_EMAIL") == true, "\(wrong.body)")
            let created = try await server.post(Self.v1("accounts:signInWithEmailLink"), #"{"email":"cat@example.com","oobCode":"\#(first.code)"}"#)
            #expect(created.json["isNewUser"] as? Bool == true && created.json["idToken"] is String, "\(created.body)")
            let uid = try #require(created.json["localId"] as? String)
            let claims = try await server.verifiedClaims(try #require(created.json["idToken"] as? String))
            #expect(claims.email == "cat@example.com" && claims.emailVerified == true)

            #expect(try await server.post(Self.v1("accounts:sendOobCode"), send).status == 200)
            let second = try await Self.lastLink(server, to: "cat@example.com")
            let again = try await server.post(Self.v3("emailLinkSignin"), #"{"email":"cat@example.com","oobCode":"\#(second.code)"}"#)
            #expect(again.json["isNewUser"] as? Bool == false && again.json["localId"] as? String == uid, "\(again.body)")

            #expect(try await server.post(Self.v1("accounts:sendOobCode"), send).status == 200)
            let late = try await Self.lastLink(server, to: "cat@example.com")
            server.clock.advance(by: 3_601)
            let expired = try await server.post(Self.v1("accounts:signInWithEmailLink"), #"{"email":"cat@example.com","oobCode":"\#(late.code)"}"#)
            #expect(expired.errorMessage?.hasPrefix("EXPIRED_OOB_CODE") == true, "\(expired.body)")
        }
    }

    @Test(
        "with an idToken the link's address goes to that user: a password account changes address, an anonymous one gets one; another's address is EMAIL_EXISTS"
    )
    func emailLinkLinksToSignedInUser() async throws {
        try await InProcessServer.with { server in
            func link(_ email: String, idToken: String) async throws -> ServerProcess.Answer {
                let send = #"{"requestType":"EMAIL_SIGNIN","email":"\#(email)","continueUrl":"https://app.example.com/finish"}"#
                #expect(try await server.post(Self.v1("accounts:sendOobCode"), send).status == 200)
                let code = try await Self.lastLink(server, to: email).code
                return try await server.post(
                    Self.v1("accounts:signInWithEmailLink"), #"{"email":"\#(email)","oobCode":"\#(code)","idToken":"\#(idToken)"}"#)
            }
            // Bob's password account takes alice's address, keeps its uid and its password.
            let (bobToken, bob) = try await Self.signUp(server, "bob@example.com", password: "bobs password")
            let linked = try await link("alice@example.com", idToken: bobToken)
            #expect(linked.status == 200 && linked.json["localId"] as? String == bob, "\(linked.body)")
            #expect(linked.json["email"] as? String == "alice@example.com" && linked.json["isNewUser"] as? Bool == false)
            let claims = try await server.verifiedClaims(try #require(linked.json["idToken"] as? String))
            #expect(claims.email == "alice@example.com" && claims.emailVerified == true)
            let withPassword = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"alice@example.com","password":"bobs password","returnSecureToken":true}"#)
            #expect(withPassword.json["localId"] as? String == bob, "\(withPassword.body)")
            let oldAddress = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"bob@example.com","password":"bobs password","returnSecureToken":true}"#)
            #expect(oldAddress.errorMessage?.hasPrefix("INVALID_LOGIN_CREDENTIALS") == true, "\(oldAddress.body)")

            // An anonymous user gets the address and keeps its uid.
            let anonymous = try await server.post(Self.v1("accounts:signUp"), #"{"returnSecureToken":true}"#)
            let anonymousToken = try #require(anonymous.json["idToken"] as? String, "\(anonymous.body)")
            let carol = try await link("carol@example.com", idToken: anonymousToken)
            #expect(carol.json["localId"] as? String == anonymous.json["localId"] as? String, "\(carol.body)")
            #expect(carol.json["email"] as? String == "carol@example.com")

            // An address another account has is refused before the code is used.
            let taken = try await link("alice@example.com", idToken: try #require(carol.json["idToken"] as? String))
            #expect(taken.errorMessage?.hasPrefix("EMAIL_EXISTS") == true, "\(taken.body)")
            let stillCarol = try await server.post(Self.v1("accounts:lookup"), #"{"idToken":"\#(try #require(carol.json["idToken"] as? String))"}"#)
            #expect((stillCarol.json["users"] as? [[String: Any]])?.first?["email"] as? String == "carol@example.com", "\(stillCarol.body)")
        }
    }

    @Test("an account with a second factor signs in by email link to a pending credential, which its TOTP code completes")
    func emailLinkWithSecondFactor() async throws {
        try await InProcessServer.with { server in
            let (_, idToken) = try await server.verifiedUser("dee@example.com")
            let enrolled = try await server.enrollTOTP(idToken)
            let send = #"{"requestType":"EMAIL_SIGNIN","email":"dee@example.com","continueUrl":"https://app.example.com/finish"}"#
            #expect(try await server.post(Self.v1("accounts:sendOobCode"), send).status == 200)
            let link = try await Self.lastLink(server, to: "dee@example.com")
            let pending = try await server.post(Self.v1("accounts:signInWithEmailLink"), #"{"email":"dee@example.com","oobCode":"\#(link.code)"}"#)
            let credential = try #require(pending.json["mfaPendingCredential"] as? String, "\(pending.body)")
            #expect(pending.json["idToken"] == nil)
            server.nextStep()
            let finished = try await server.post(
                ServerProcess.v2("mfaSignIn:finalize"), AbuseLimitTests.totpSignIn(credential, enrolled.enrollmentID, try server.code(enrolled.key)))
            #expect(finished.json["idToken"] is String, "\(finished.body)")
        }
    }

    @Test(
        "a user's change of address tells the previous one with a RECOVER_EMAIL link, which restores it once, verified, and signs everyone out"
    )
    func addressChangeCanBeUndone() async throws {
        try await InProcessServer.with { server in
            // Someone with the session changes the address directly.
            let (idToken, uid) = try await Self.signUp(server, "cy@example.com")
            let changed = try await server.post(
                Self.v1("accounts:update"), #"{"idToken":"\#(idToken)","email":"eve@example.com","returnSecureToken":true}"#)
            #expect(changed.status == 200, "\(changed.body)")
            let takeover = try #require(changed.json["refreshToken"] as? String, "\(changed.body)")
            let notice = try await Self.lastLink(server, to: "cy@example.com")
            #expect(notice.requestType == "RECOVER_EMAIL")
            #expect(URLComponents(string: notice.link)?.queryItems?.first { $0.name == "mode" }?.value == "recoverEmail", "\(notice.link)")
            let inspected = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(notice.code)"}"#)
            #expect(inspected.json["requestType"] as? String == "RECOVER_EMAIL", "\(inspected.body)")
            #expect(inspected.json["email"] as? String == "cy@example.com" && inspected.json["newEmail"] as? String == "eve@example.com")
            // A code to restore is no password reset.
            let misused = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(notice.code)","newPassword":"taken over"}"#)
            #expect(misused.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(misused.body)")

            // Two days later the owner reads it and applies it.
            server.clock.advance(by: 2 * 86_400)
            let restored = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(notice.code)"}"#)
            #expect(restored.json["email"] as? String == "cy@example.com" && restored.json["emailVerified"] as? Bool == true, "\(restored.body)")
            #expect(try await server.adminUser(uid)["email"] as? String == "cy@example.com")
            let refreshed = try await server.refresh(takeover)
            #expect(refreshed.status == 400, "the session that changed the address ended: \(refreshed.body)")
            let again = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(notice.code)"}"#)
            #expect(again.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(again.body)")
        }
    }

    @Test("a change of address applied by its code tells the previous address too; its link expires after three days or a later change")
    func verifiedChangeCanBeUndone() async throws {
        try await InProcessServer.with { server in
            let (idToken, _) = try await Self.signUp(server, "dee@example.com")
            _ = try await server.post(
                Self.v1("accounts:sendOobCode"), #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"dee2@example.com"}"#)
            let change = try await Self.lastLink(server, to: "dee2@example.com")
            let moved = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(change.code)"}"#)
            #expect(moved.json["email"] as? String == "dee2@example.com", "\(moved.body)")
            let notice = try await Self.lastLink(server, to: "dee@example.com")
            #expect(notice.requestType == "RECOVER_EMAIL")
            server.clock.advance(by: 3 * 86_400 + 1)
            let late = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(notice.code)"}"#)
            #expect(late.errorMessage?.hasPrefix("EXPIRED_OOB_CODE") == true, "\(late.body)")

            // A fresh notice loses its use once the address changes again.
            let signedIn = try await server.post(
                ServerProcess.signInPath, #"{"email":"dee2@example.com","password":"long enough","returnSecureToken":true}"#)
            let fresh = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            let changed = try await server.post(Self.v1("accounts:update"), #"{"idToken":"\#(fresh)","email":"dee3@example.com"}"#)
            #expect(changed.status == 200, "\(changed.body)")
            let second = try await Self.lastLink(server, to: "dee2@example.com")
            #expect(second.requestType == "RECOVER_EMAIL")
            let signedInAgain = try await server.post(
                ServerProcess.signInPath, #"{"email":"dee3@example.com","password":"long enough","returnSecureToken":true}"#)
            let third = try #require(signedInAgain.json["idToken"] as? String, "\(signedInAgain.body)")
            _ = try await server.post(Self.v1("accounts:update"), #"{"idToken":"\#(third)","email":"dee4@example.com"}"#)
            let stale = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(second.code)"}"#)
            #expect(stale.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(stale.body)")
        }
    }

    @Test("refusals: a missing or unknown requestType, a client asking for the link, a sign-in link without a continue URL, an unknown code")
    func refusals() async throws {
        try await InProcessServer.with { server in
            let send = Self.v1("accounts:sendOobCode")
            let cases: [(String, String)] = [
                (#"{"email":"x@example.com"}"#, "MISSING_REQ_TYPE"),
                (#"{"requestType":"REVERT_SECOND_FACTOR_ADDITION","email":"x@example.com"}"#, "INVALID_REQ_TYPE"),
                (#"{"requestType":"OOB_REQ_TYPE_UNSPECIFIED","email":"x@example.com"}"#, "INVALID_REQ_TYPE"),
                (#"{"requestType":"RECOVER_EMAIL","email":"x@example.com"}"#, "INVALID_REQ_TYPE"),
                (#"{"requestType":"PASSWORD_RESET","email":"x@example.com","returnOobLink":true}"#, "INSUFFICIENT_PERMISSION"),
                (#"{"requestType":"EMAIL_SIGNIN","email":"x@example.com"}"#, "MISSING_CONTINUE_URI"),
                (#"{"requestType":"EMAIL_SIGNIN","email":"x@example.com","continueUrl":"no-scheme"}"#, "INVALID_CONTINUE_URI"),
                (#"{"requestType":"PASSWORD_RESET"}"#, "MISSING_EMAIL"),
                (#"{"requestType":"VERIFY_EMAIL"}"#, "MISSING_ID_TOKEN"),
                (#"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"x"}"#, "MISSING_NEW_EMAIL"),
            ]
            for (body, code) in cases {
                let answer = try await server.post(send, body)
                #expect(answer.errorMessage?.hasPrefix(code) == true, "\(body): \(answer.body)")
                #expect(answer.status == 400, "\(body): \(answer.body)")
            }
            let unknown = try await server.post(Self.v1("accounts:resetPassword"), #"{"oobCode":"not-a-code","newPassword":"long enough"}"#)
            #expect(unknown.errorMessage?.hasPrefix("INVALID_OOB_CODE") == true, "\(unknown.body)")
            let missing = try await server.post(Self.v1("accounts:resetPassword"), "{}")
            #expect(missing.errorMessage?.hasPrefix("MISSING_OOB_CODE") == true, "\(missing.body)")
            // Under the emulator's protection default an unknown address answers as a known one.
            let nobody = try await server.post(send, #"{"requestType":"PASSWORD_RESET","email":"nobody@example.com"}"#)
            #expect(nobody.status == 200, "\(nobody.body)")
        }
    }

    @Test("per client address, emails are throttled by the routes' limit")
    func perClientLimit() async throws {
        try await InProcessServer.with(limits: RequestLimits(emailsPerAddress: 2)) { server in
            for index in 0..<2 {
                let answer = try await server.post(
                    Self.v1("accounts:sendOobCode"), #"{"requestType":"PASSWORD_RESET","email":"user\#(index)@example.com"}"#)
                #expect(answer.status == 200, "\(answer.body)")
            }
            let throttled = try await server.post(Self.v1("accounts:sendOobCode"), #"{"requestType":"PASSWORD_RESET","email":"user9@example.com"}"#)
            #expect(throttled.errorMessage?.hasPrefix("TOO_MANY_ATTEMPTS_TRY_LATER : too many emails from this address") == true, "\(throttled.body)")
            #expect(try server.throttled("email", "ip") == 1)
        }
    }

    /// firebase-admin's `generate_password_reset_link`, `generate_email_verification_link` and
    /// `generate_sign_in_with_email_link` against the routes served live: links it accepts, whose
    /// codes then work through the REST API.
    static let generateLinksScript = """
        from firebase_admin import auth
        settings = auth.ActionCodeSettings(url="https://app.example.com/finish", handle_code_in_app=True)
        out = {
            "reset": auth.generate_password_reset_link("eve@example.com"),
            "verify": auth.generate_email_verification_link("eve@example.com", action_code_settings=settings),
            "signIn": auth.generate_sign_in_with_email_link("new@example.com", settings),
        }
        try:
            auth.generate_password_reset_link("nobody@example.com")
            out["unknown"] = "accepted"
        except auth.EmailNotFoundError:
            out["unknown"] = "EmailNotFoundError"
        print(json.dumps(out))
        """

    @Test("firebase-admin's generate_*_link calls return links whose codes reset a password, verify an address and sign in")
    func firebaseAdminLinks() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            _ = try await Self.signUp(server, "eve@example.com")
            let out = try await server.firebaseAdmin(Self.generateLinksScript)
            func code(_ name: String) throws -> String {
                let link = try #require(out[name] as? String, "\(out)")
                return try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value, "\(link)")
            }
            #expect((out["signIn"] as? String)?.contains("continueUrl=https%3A%2F%2Fapp.example.com%2Ffinish") == true, "\(out)")
            #expect(out["unknown"] as? String == "EmailNotFoundError", "\(out)")
            let verified = try await server.post(Self.v1("accounts:update"), #"{"oobCode":"\#(try code("verify"))"}"#)
            #expect(verified.json["emailVerified"] as? Bool == true, "\(verified.body)")
            let reset = try await server.post(
                Self.v1("accounts:resetPassword"), #"{"oobCode":"\#(try code("reset"))","newPassword":"reset by admin"}"#)
            #expect(reset.status == 200, "\(reset.body)")
            let signedIn = try await server.post(ServerProcess.signInPath, #"{"email":"eve@example.com","password":"reset by admin"}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            let linked = try await server.post(
                Self.v1("accounts:signInWithEmailLink"), #"{"email":"new@example.com","oobCode":"\#(try code("signIn"))"}"#)
            #expect(linked.json["isNewUser"] as? Bool == true, "\(linked.body)")
        }
    }
}
