import Foundation
import OTPAuthentication
import Testing

/// The outside review's account takeover, through the REST API: with a refresh token older than
/// the recent-login window, change the password (or attach an address of the attacker's, by
/// password or by email link), withdraw the TOTP factor with the new session, and sign in with the
/// password alone. Each step must now be refused, and nothing change.
@Suite("Stale sessions through the REST API")
struct StaleSessionRouteTests {
    static let update = "/identitytoolkit.googleapis.com/v1/accounts:update" + ServerProcess.key
    static let delete = "/identitytoolkit.googleapis.com/v1/accounts:delete" + ServerProcess.key
    static let signUp = "/identitytoolkit.googleapis.com/v1/accounts:signUp" + ServerProcess.key
    static let v3Delete = "/www.googleapis.com/identitytoolkit/v3/relyingparty/deleteAccount" + ServerProcess.key

    @Test("a refreshed stale session cannot change the password, address or providers, withdraw the factor or delete the account")
    func takeoverIsRefused() async throws {
        try await InProcessServer.with { server in
            let (uid, enrolling) = try await server.verifiedUser("ada@example.com")
            let (key, enrollmentID, _, _) = try await server.enrollTOTP(enrolling)
            server.nextStep()
            let signedInAt = server.clock.now()
            let (_, refreshToken) = try await server.signInWithTOTP("ada@example.com", key: key, enrollmentID: enrollmentID)

            server.clock.advance(by: MultiFactorConfiguration().recentLoginWindow + 1)
            let refreshed = try await server.post(
                ServerProcess.tokenPath, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            let stale = try #require(refreshed.json["id_token"] as? String, "\(refreshed.body)")
            #expect(try await server.verifiedClaims(stale).authTime == signedInAt)

            // The attacker's own address, with a sign-in link to it, to attach to Ada's account.
            let send = #"{"requestType":"EMAIL_SIGNIN","email":"mallory@example.com","continueUrl":"https://app.example.com/finish"}"#
            #expect(try await server.post(EmailActionRouteTests.v1("accounts:sendOobCode"), send).status == 200)
            let malloryCode = try await EmailActionRouteTests.lastLink(server, to: "mallory@example.com").code

            let attempts: [(String, String)] = [
                (Self.update, #"{"idToken":"\#(stale)","password":"attacker's choice","returnSecureToken":true}"#),
                (Self.update, #"{"idToken":"\#(stale)","email":"mallory@example.com","returnSecureToken":true}"#),
                (Self.update, #"{"idToken":"\#(stale)","deleteProvider":["password"]}"#),
                (Self.signUp, #"{"idToken":"\#(stale)","email":"mallory@example.com","password":"attacker's choice"}"#),
                (
                    EmailActionRouteTests.v1("accounts:signInWithEmailLink"),
                    #"{"idToken":"\#(stale)","email":"mallory@example.com","oobCode":"\#(malloryCode)"}"#
                ),
                (ServerProcess.v2("mfaEnrollment:withdraw"), #"{"idToken":"\#(stale)","mfaEnrollmentId":"\#(enrollmentID)"}"#),
                (Self.delete, #"{"idToken":"\#(stale)"}"#),
                (Self.v3Delete, #"{"idToken":"\#(stale)"}"#),
            ]
            for (path, body) in attempts {
                let refused = try await server.post(path, body)
                #expect(refused.status == 400, "\(path) \(body): \(refused.body)")
                #expect(refused.errorMessage?.hasPrefix("CREDENTIAL_TOO_OLD_LOGIN_AGAIN : ") == true, "\(path): \(refused.body)")
            }

            // Nothing changed: the owner signs in with the same password and factor.
            server.nextStep()
            let owner = try await server.signInWithTOTP("ada@example.com", key: key, enrollmentID: enrollmentID)
            let lookup = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(owner.idToken)"}"#)
            let user = try #require((lookup.json["users"] as? [[String: Any]])?.first, "\(lookup.body)")
            #expect(user["localId"] as? String == uid && user["email"] as? String == "ada@example.com")
            #expect((user["mfaInfo"] as? [[String: Any]])?.map { $0["mfaEnrollmentId"] as? String } == [enrollmentID])
            // The stale session itself lives on for what needs no recent sign-in.
            let renamed = try await server.post(Self.update, #"{"idToken":"\#(stale)","displayName":"Ada"}"#)
            #expect(renamed.status == 200, "\(renamed.body)")
        }
    }

    @Test("a password change within the window answers a session whose auth_time is still the sign-in's, which then ages out")
    func continuedSessionKeepsAuthTime() async throws {
        try await InProcessServer.with { server in
            _ = try await server.verifiedUser("bob@example.com")
            let signUp = try await server.post(Self.signUp, #"{}"#)
            let anonymous = try #require(signUp.json["idToken"] as? String, "\(signUp.body)")
            let signedInAt = server.clock.now()
            server.clock.advance(by: 200)
            let linked = try await server.post(Self.signUp, #"{"idToken":"\#(anonymous)","email":"carol@example.com","password":"long enough"}"#)
            let linkedToken = try #require(linked.json["idToken"] as? String, "\(linked.body)")
            #expect(try await server.verifiedClaims(linkedToken).authTime == signedInAt)

            let changed = try await server.post(Self.update, #"{"idToken":"\#(linkedToken)","password":"even longer","returnSecureToken":true}"#)
            let changedToken = try #require(changed.json["idToken"] as? String, "\(changed.body)")
            #expect(try await server.verifiedClaims(changedToken).authTime == signedInAt)

            server.clock.advance(by: 101)
            let refused = try await server.post(Self.update, #"{"idToken":"\#(changedToken)","password":"a third one"}"#)
            #expect(refused.errorMessage?.hasPrefix("CREDENTIAL_TOO_OLD_LOGIN_AGAIN : ") == true, "\(refused.body)")
        }
    }

    @Test("the user's own deletion within the window: the account and its tokens are gone")
    func deleteWithinWindow() async throws {
        try await InProcessServer.with { server in
            let (uid, token) = try await server.verifiedUser("dan@example.com")
            let deleted = try await server.post(Self.delete, #"{"idToken":"\#(token)"}"#)
            #expect(deleted.status == 200 && deleted.json["kind"] as? String == "identitytoolkit#DeleteAccountResponse", "\(deleted.body)")
            #expect(try await server.service.administration.accountDetails(id: uid) == nil)
            let lookup = try await server.post(ServerProcess.lookupPath, #"{"idToken":"\#(token)"}"#)
            #expect(lookup.errorMessage?.hasPrefix("USER_NOT_FOUND") == true, "\(lookup.body)")
            let byID = try await server.post(Self.delete, #"{"localId":"\#(uid)"}"#)
            #expect(byID.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION : ") == true, "\(byID.body)")
        }
    }

    @Test("a password change from a session that signed in without the account's second factor is refused")
    func passwordChangeNeedsSecondFactor() async throws {
        try await InProcessServer.with { server in
            let (_, enrolling) = try await server.verifiedUser("erin@example.com")
            let (_, _, _, enrolledToken) = try await server.enrollTOTP(enrolling)
            let refused = try await server.post(Self.update, #"{"idToken":"\#(enrolledToken)","password":"attacker's choice"}"#)
            #expect(refused.errorMessage?.hasPrefix("CREDENTIAL_TOO_OLD_LOGIN_AGAIN : ") == true, "\(refused.body)")
            let renamed = try await server.post(Self.update, #"{"idToken":"\#(enrolledToken)","displayName":"Erin"}"#)
            #expect(renamed.status == 200, "\(renamed.body)")
        }
    }
}
