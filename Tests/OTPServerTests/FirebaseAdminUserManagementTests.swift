import Foundation
import NIOHTTP1
import OTPTestUtilities
import Testing

/// firebase-admin-python's user management (`update_user`, `revoke_refresh_tokens`, `list_users`,
/// `get_user_by_phone_number`, `get_users`, `delete_users`) against the routes served on loopback, with
/// `FIREBASE_AUTH_EMULATOR_HOST` pointing at it; what the SDK reads back is what the test checks.
@Suite struct FirebaseAdminUserManagementTests {
    static let admin = [("Authorization", "Bearer owner")]

    static let updateScript = """
        def user(uid):
            u = auth.get_user(uid)
            return {"email": u.email, "name": u.display_name, "phone": u.phone_number, "verified": u.email_verified,
                    "disabled": u.disabled, "providers": sorted(p.provider_id for p in u.provider_data)}
        def refused(call):
            try:
                call()
                return "accepted"
            except firebase_admin.exceptions.FirebaseError as error:
                return type(error).__name__
        out = {}
        uid = auth.create_user(email="grace@example.com", password="first password", display_name="Grace").uid
        other = auth.create_user(email="other@example.com", phone_number="+12015550188").uid
        out["uid"] = uid
        auth.update_user(uid, display_name="Grace Hopper", email="Hopper@Example.com", phone_number="+1 201-555-0177",
                         password="second password", disabled=True, email_verified=True)
        out["updated"] = user(uid)
        auth.update_user(uid, display_name=auth.DELETE_ATTRIBUTE, phone_number=auth.DELETE_ATTRIBUTE, disabled=False)
        out["removed"] = user(uid)
        out["missing"] = refused(lambda: auth.update_user("no-such-uid", display_name="X"))
        out["emailTaken"] = refused(lambda: auth.update_user(uid, email="other@example.com", display_name="Taken"))
        out["phoneTaken"] = refused(lambda: auth.update_user(uid, phone_number="+12015550188", display_name="Taken"))
        out["badPhone"] = refused(lambda: auth.update_user(uid, phone_number="+1", display_name="Taken"))
        out["afterRefusals"] = user(uid)
        out["other"] = user(other)
        print(json.dumps(out))
        """

    @Test func updateUserChangesAndRemovesAttributes() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let out = try await server.firebaseAdmin(Self.updateScript)
            let uid = try #require(out["uid"] as? String)
            let updated = try #require(out["updated"] as? [String: Any])
            #expect(updated["email"] as? String == "hopper@example.com")
            #expect(updated["name"] as? String == "Grace Hopper")
            #expect(updated["phone"] as? String == "+12015550177")
            #expect(updated["verified"] as? Bool == true)
            #expect(updated["disabled"] as? Bool == true)
            #expect(updated["providers"] as? [String] == ["password", "phone"])
            let removed = try #require(out["removed"] as? [String: Any])
            #expect(removed["name"] is NSNull)
            #expect(removed["phone"] is NSNull)
            #expect(removed["disabled"] as? Bool == false)
            #expect(removed["email"] as? String == "hopper@example.com")
            #expect(removed["providers"] as? [String] == ["password"])
            #expect(out["missing"] as? String == "UserNotFoundError")
            #expect(out["emailTaken"] as? String == "EmailAlreadyExistsError")
            #expect(out["phoneTaken"] as? String == "PhoneNumberAlreadyExistsError")
            #expect(out["badPhone"] as? String == "InvalidArgumentError")
            // A refused update wrote nothing, not even the display name it carried.
            let after = try #require(out["afterRefusals"] as? [String: Any])
            #expect(after["name"] is NSNull)
            #expect(after["email"] as? String == "hopper@example.com")
            #expect(after["phone"] is NSNull)
            let other = try #require(out["other"] as? [String: Any])
            #expect(other["phone"] as? String == "+12015550188")

            // The new password signs in; the old one no longer does.
            let signedIn = try await server.post(ClientEndpointTests.signIn, #"{"email":"hopper@example.com","password":"second password"}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.json["localId"] as? String == uid)
            let old = try await server.post(ClientEndpointTests.signIn, #"{"email":"hopper@example.com","password":"first password"}"#)
            #expect(old.status == 400)

            // Refusals over the wire, each before anything is written.
            let update = "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:update"
            for (body, code) in [
                (#"{"localId":"\#(uid)","password":"short","displayName":"Weak"}"#, "WEAK_PASSWORD"),
                (#"{"localId":"\#(uid)","email":"not an address","displayName":"Bad"}"#, "INVALID_EMAIL"),
                (#"{"displayName":"Nobody"}"#, "MISSING_LOCAL_ID"),
                (#"{"localId":"\#(uid)","phoneNumber":"+12015550199","deleteProvider":["phone"]}"#, "INVALID_ARGUMENT"),
                (#"{"localId":"\#(uid)","validSince":"soon"}"#, "INVALID_ARGUMENT"),
            ] {
                let answer = try await server.post(update, body, headers: Self.admin)
                #expect(answer.status == 400, "\(body): \(answer.body)")
                #expect(answer.errorMessage?.hasPrefix(code + " : ") == true, "\(body): \(answer.body)")
            }
            let lookup = try await server.post(
                "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:lookup", #"{"localId":["\#(uid)"]}"#,
                headers: Self.admin)
            let users = try #require(lookup.json["users"] as? [[String: Any]], "\(lookup.body)")
            #expect(users.first?["displayName"] == nil)
        }
    }

    static let revokeScript = """
        def check(token):
            try:
                auth.verify_id_token(token, check_revoked=True)
                return "valid"
            except auth.RevokedIdTokenError:
                return "RevokedIdTokenError"
        uid, token = sys.argv[2], sys.argv[3]
        out = {"before": check(token), "validAfterBefore": auth.get_user(uid).tokens_valid_after_timestamp}
        # iat has whole seconds, and a token of the second of the revocation stays valid.
        time.sleep(1.2)
        auth.revoke_refresh_tokens(uid)
        out["after"] = check(token)
        out["uncheckedAfter"] = auth.verify_id_token(token)["uid"]
        out["validAfter"] = auth.get_user(uid).tokens_valid_after_timestamp
        out["now"] = int(time.time() * 1000)
        print(json.dumps(out))
        """

    static let verifyScript = """
        print(json.dumps({"uid": auth.verify_id_token(sys.argv[2], check_revoked=True)["uid"]}))
        """

    @Test func revokedTokensFailCheckRevokedAndRefreshWhileFreshOnesPass() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let created = try await server.post(
                ClientEndpointTests.signUp, #"{"email":"ida@example.com","password":"long enough","returnSecureToken":true}"#)
            let uid = try #require(created.json["localId"] as? String, "\(created.body)")
            let token = try #require(created.json["idToken"] as? String)
            let refreshToken = try #require(created.json["refreshToken"] as? String)

            let out = try await server.firebaseAdmin(Self.revokeScript, [uid, token])
            #expect(out["before"] as? String == "valid")
            #expect(out["validAfterBefore"] as? Int == 0)
            #expect(out["after"] as? String == "RevokedIdTokenError")
            #expect(out["uncheckedAfter"] as? String == uid)
            let validAfter = try #require(out["validAfter"] as? Int)
            let now = try #require(out["now"] as? Int)
            #expect(validAfter > 0 && validAfter <= now && validAfter % 1000 == 0, "\(validAfter) against \(now)")

            // The refresh token and the old ID token stop working at the server too.
            let refreshed = try await server.post(
                ClientEndpointTests.token, #"{"grantType":"refresh_token","refreshToken":"\#(refreshToken)"}"#)
            #expect(refreshed.status == 400)
            #expect(refreshed.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true, "\(refreshed.body)")
            let looked = try await server.post(ClientEndpointTests.lookup, #"{"idToken":"\#(token)"}"#)
            #expect(looked.errorMessage?.hasPrefix("TOKEN_EXPIRED") == true, "\(looked.body)")

            // A new sign-in, after the revocation's second by the server's clock, gets tokens that pass.
            server.clock.set(max(server.clock.now(), Int64(validAfter / 1000) + 1))
            let signedIn = try await server.post(
                ClientEndpointTests.signIn, #"{"email":"ida@example.com","password":"long enough","returnSecureToken":true}"#)
            let fresh = try #require(signedIn.json["idToken"] as? String, "\(signedIn.body)")
            let verified = try await server.firebaseAdmin(Self.verifyScript, [fresh])
            #expect(verified["uid"] as? String == uid)
            let freshRefresh = try #require(signedIn.json["refreshToken"] as? String)
            let refreshedAgain = try await server.post(
                ClientEndpointTests.token, #"{"grantType":"refresh_token","refreshToken":"\#(freshRefresh)"}"#)
            #expect(refreshedAgain.status == 200, "\(refreshedAgain.body)")
        }
    }

    static let listScript = """
        created = sorted(auth.create_user(uid="user-%02d" % i, email="user%d@example.com" % i).uid for i in range(7))
        pages = []
        page = auth.list_users(max_results=3)
        while page:
            pages.append([u.uid for u in page.users])
            page = page.get_next_page()
        everyone = [u.uid for u in auth.list_users(max_results=2).iterate_all()]
        first = auth.list_users(max_results=3).users[0]
        print(json.dumps({"created": created, "pages": pages, "all": everyone, "firstEmail": first.email}))
        """

    @Test func listUsersPagesThroughEveryUserOnce() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let out = try await server.firebaseAdmin(Self.listScript)
            let created = try #require(out["created"] as? [String])
            #expect(created.count == 7)
            let pages = try #require(out["pages"] as? [[String]])
            #expect(pages.map(\.count) == [3, 3, 1])
            #expect(pages.flatMap { $0 } == created)
            #expect(out["all"] as? [String] == created)
            #expect(out["firstEmail"] as? String == "user0@example.com")

            let batchGet = "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:batchGet"
            let tooMany = try await server.post(batchGet + "?maxResults=1001", "", headers: Self.admin, method: .get)
            #expect(tooMany.errorMessage?.hasPrefix("INVALID_ARGUMENT") == true, "\(tooMany.body)")
            let anonymous = try await server.post(batchGet, "", method: .get)
            #expect(anonymous.status == 401, "\(anonymous.body)")
        }
    }

    static let lookupScript = """
        from firebase_admin.auth import UidIdentifier, EmailIdentifier, PhoneIdentifier, ProviderIdentifier
        a = auth.create_user(uid="by-phone", phone_number="+12015550123").uid
        b = auth.create_user(uid="by-email", email="kay@example.com").uid
        out = {"byPhone": auth.get_user_by_phone_number("+12015550123").uid}
        try:
            auth.get_user_by_phone_number("+12015550124")
            out["unknownPhone"] = "found"
        except auth.UserNotFoundError:
            out["unknownPhone"] = "UserNotFoundError"
        try:
            auth.create_user(phone_number="+12015550123")
            out["duplicatePhone"] = "created"
        except auth.PhoneNumberAlreadyExistsError:
            out["duplicatePhone"] = "PhoneNumberAlreadyExistsError"
        result = auth.get_users([UidIdentifier("by-email"), EmailIdentifier("kay@example.com"), PhoneIdentifier("+12015550123"),
                                 UidIdentifier("nobody"), ProviderIdentifier("phone", "+12015550123"), PhoneIdentifier("+12015550199")])
        out["users"] = sorted(u.uid for u in result.users)
        out["notFound"] = sorted(type(i).__name__ for i in result.not_found)
        print(json.dumps(out))
        """

    @Test func getUserByPhoneNumberAndGetUsers() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let out = try await server.firebaseAdmin(Self.lookupScript)
            #expect(out["byPhone"] as? String == "by-phone")
            #expect(out["unknownPhone"] as? String == "UserNotFoundError")
            #expect(out["duplicatePhone"] as? String == "PhoneNumberAlreadyExistsError")
            #expect(out["users"] as? [String] == ["by-email", "by-phone"])
            #expect(out["notFound"] as? [String] == ["PhoneIdentifier", "UidIdentifier"])
        }
    }

    /// `auth.delete_users` always forces; the SDK's own user manager sends `force: false`, and
    /// the SDK's result type reads the answer, so the refusal of accounts not disabled is what
    /// firebase-admin reports.
    static let deleteScript = """
        from firebase_admin import _user_mgt
        def exists(uid):
            try:
                auth.get_user(uid)
                return True
            except auth.UserNotFoundError:
                return False
        for uid in ["enabled-1", "enabled-2", "enabled-3"]:
            auth.create_user(uid=uid)
        auth.create_user(uid="disabled-1", disabled=True)
        manager = auth._get_client(None)._user_manager
        uids = ["enabled-1", "disabled-1", "never-existed"]
        unforced = _user_mgt.DeleteUsersResult(manager.delete_users(uids, force_delete=False), len(uids))
        out = {"success": unforced.success_count, "failure": unforced.failure_count,
               "errors": [[e.index, e.reason] for e in unforced.errors],
               "left": [exists(u) for u in ["enabled-1", "disabled-1", "enabled-2"]]}
        forced = auth.delete_users(["enabled-1", "enabled-2", "never-existed"])
        out["forced"] = [forced.success_count, forced.failure_count]
        out["leftAfterForce"] = [exists(u) for u in ["enabled-1", "enabled-2", "enabled-3"]]
        print(json.dumps(out))
        """

    @Test func deleteUsersRemovesThemAndReportsFailures() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let out = try await server.firebaseAdmin(Self.deleteScript)
            #expect(out["success"] as? Int == 2)
            #expect(out["failure"] as? Int == 1)
            let errors = try #require(out["errors"] as? [[Any]])
            #expect(errors.count == 1)
            #expect(errors.first?.first as? Int == 0)
            #expect((errors.first?.last as? String)?.contains("NOT_DISABLED") == true, "\(errors)")
            #expect(out["left"] as? [Bool] == [true, false, true])
            #expect(out["forced"] as? [Int] == [3, 0])
            #expect(out["leftAfterForce"] as? [Bool] == [false, false, true])

            let batchDelete = "/identitytoolkit.googleapis.com/v1/projects/\(server.projectID)/accounts:batchDelete"
            for (body, code) in [(#"{"force":true}"#, "MISSING_LOCAL_ID"), (#"{"localIds":[""],"force":true}"#, "INVALID_ARGUMENT")] {
                let answer = try await server.post(batchDelete, body, headers: Self.admin)
                #expect(answer.errorMessage?.hasPrefix(code + " : ") == true, "\(body): \(answer.body)")
            }
        }
    }

    /// firebase-admin-python reads no second factors at all, and firebase-admin-node no TOTP ones
    /// before its TOTP support: a user with a TOTP factor must still be read, listed, updated and
    /// deleted through it, the factor untouched until the user goes.
    static let totpUserScript = """
        uid = sys.argv[2]
        user = auth.get_user(uid)
        listed = [u.uid for u in auth.list_users().iterate_all()]
        auth.update_user(uid, display_name="Renamed", disabled=False)
        renamed = auth.get_user(uid).display_name
        print(json.dumps({"email": user.email, "listed": uid in listed, "renamed": renamed}))
        """

    @Test func aUserWithATOTPFactorIsManagedByAnSDKThatKnowsNoTOTP() async throws {
        try await InProcessServer.with(signingAlgorithm: .rs256, live: true) { server in
            let (uid, idToken) = try await server.verifiedUser("tess@example.com")
            let enrolled = try await server.enrollTOTP(idToken)
            let out = try await server.firebaseAdmin(Self.totpUserScript, [uid])
            #expect(out["email"] as? String == "tess@example.com")
            #expect(out["listed"] as? Bool == true)
            #expect(out["renamed"] as? String == "Renamed")
            // The factor is still there, and still asked for.
            let factors = try await server.service.administration.enrolledFactors(accountID: uid)
            #expect(factors.map(\.uid) == [enrolled.enrollmentID])
            let (_, hints) = try await server.pendingSignIn("tess@example.com")
            #expect(hints.compactMap { $0["mfaEnrollmentId"] as? String } == [enrolled.enrollmentID])
            let deleted = try await server.firebaseAdmin(#"auth.delete_user(sys.argv[2]); print(json.dumps({"ok": True}))"#, [uid])
            #expect(deleted["ok"] as? Bool == true)
            #expect(try await server.service.administration.enrolledFactors(accountID: uid).isEmpty)
        }
    }
}
