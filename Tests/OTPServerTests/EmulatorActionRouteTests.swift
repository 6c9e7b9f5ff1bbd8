import Foundation
import OTPServer
import Testing

/// `GET /emulator/action`, where the emulator's email links lead, followed as a test suite written
/// for Firebase's Auth emulator follows them (`fetch(oobLink)`), in process.
@Suite struct EmulatorActionRouteTests {
    static let send = EmailActionRouteTests.v1("accounts:sendOobCode")

    /// The link `server` sent `email` last, as a path on this server.
    static func followable(_ server: InProcessServer, to email: String, adding extra: String = "") async throws -> (path: String, code: String) {
        let sent = try await EmailActionRouteTests.lastLink(server, to: email)
        let query = try #require(URLComponents(string: sent.link)?.percentEncodedQuery, "\(sent.link)")
        return ("/emulator/action?" + query + extra, sent.code)
    }

    @Test func followingALinkVerifiesChangesAndRestoresAnAddress() async throws {
        try await InProcessServer.with { server in
            let (idToken, uid) = try await EmailActionRouteTests.signUp(server, "ann@example.com")
            _ = try await server.post(Self.send, #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#)
            let verify = try await Self.followable(server, to: "ann@example.com")
            let verified = try await server.get(verify.path)
            #expect(verified.status == 200, "\(verified.body)")
            let answer = try #require(verified.json["authEmulator"] as? [String: String], "\(verified.body)")
            #expect(answer == ["success": "The email has been successfully verified.", "email": "ann@example.com"])
            #expect(try await server.adminUser(uid)["emailVerified"] as? Bool == true)
            let again = try await server.get(verify.path)
            #expect(again.status == 400 && (again.json["authEmulator"] as? [String: String])?["error"] != nil, "used once: \(again.body)")

            // A change of address with a continue URL goes on there once applied.
            _ = try await server.post(
                Self.send,
                #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"ann2@example.com","continueUrl":"https://app.example.com/done"}"#
            )
            let change = try await server.get(try await Self.followable(server, to: "ann2@example.com").path)
            #expect(change.status == 303 && change.location == "https://app.example.com/done", "\(change)")
            #expect(try await server.adminUser(uid)["email"] as? String == "ann2@example.com")
            let restore = try await server.get(try await Self.followable(server, to: "ann@example.com").path)
            #expect((restore.json["authEmulator"] as? [String: String])?["email"] == "ann@example.com", "\(restore.body)")
            #expect(try await server.adminUser(uid)["email"] as? String == "ann@example.com")
        }
    }

    @Test func aPasswordResetLinkTakesTheNewPasswordAddedToIt() async throws {
        try await InProcessServer.with { server in
            _ = try await EmailActionRouteTests.signUp(server, "ben@example.com")
            _ = try await server.post(Self.send, #"{"requestType":"PASSWORD_RESET","email":"ben@example.com"}"#)
            let reset = try await Self.followable(server, to: "ben@example.com")
            let bare = try await server.get(reset.path)
            #expect(bare.status == 400, "\(bare.body)")
            let instructions = try #require(bare.json["authEmulator"] as? [String: String], "\(bare.body)")
            #expect(instructions["urlTemplate"]?.hasSuffix("&newPassword=NEW_PASSWORD_HERE") == true, "\(instructions)")
            let placeholder = try await server.get(reset.path + "&newPassword=NEW_PASSWORD_HERE")
            #expect(placeholder.status == 400, "the placeholder is no password: \(placeholder.body)")
            let done = try await server.get(reset.path + "&newPassword=from%20the%20link")
            #expect(done.status == 200, "\(done.body)")
            let signedIn = try await server.post(ServerProcess.signInPath, #"{"email":"ben@example.com","password":"from the link"}"#)
            #expect(signedIn.status == 200, "\(signedIn.body)")
        }
    }

    @Test func aSignInLinkGoesOnToItsContinueURLWithTheLinksParameters() async throws {
        try await InProcessServer.with { server in
            _ = try await server.post(
                Self.send, #"{"requestType":"EMAIL_SIGNIN","email":"cat@example.com","continueUrl":"https://app.example.com/finish?from=mail"}"#)
            let link = try await Self.followable(server, to: "cat@example.com")
            let followed = try await server.get(link.path)
            #expect(followed.status == 303, "\(followed.body)")
            let target = try #require(followed.location.flatMap(URLComponents.init(string:)), "\(followed)")
            #expect(target.host == "app.example.com" && target.path == "/finish")
            let items = Dictionary(uniqueKeysWithValues: (target.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(items["from"] == "mail" && items["mode"] == "signIn" && items["oobCode"] == link.code, "\(items)")
            // The app completes the sign-in with the code it was sent on with.
            let signedIn = try await server.post(
                EmailActionRouteTests.v1("accounts:signInWithEmailLink"), #"{"email":"cat@example.com","oobCode":"\#(link.code)"}"#)
            #expect(signedIn.status == 200 && signedIn.json["isNewUser"] as? Bool == true, "\(signedIn.body)")
        }
    }

    @Test func linksWithoutTheirCodeOrModeAreRefusedAndAProductionServerHasNoSuchPath() async throws {
        try await InProcessServer.with { server in
            for (path, error) in [
                ("/emulator/action?mode=verifyEmail&apiKey=k", "missing oobCode query parameter"),
                ("/emulator/action?mode=nonsense&apiKey=k&oobCode=x", "Invalid mode"),
            ] {
                let answer = try await server.get(path)
                #expect(answer.status == 400 && (answer.json["authEmulator"] as? [String: String])?["error"] == error, "\(path): \(answer.body)")
            }
        }
        try await InProcessServer.with(apiKeys: ["demo-key"]) { server in
            let answer = try await server.get("/emulator/action?mode=verifyEmail&apiKey=demo-key&oobCode=x")
            #expect(answer.status == 404, "\(answer.body)")
        }
    }
}
