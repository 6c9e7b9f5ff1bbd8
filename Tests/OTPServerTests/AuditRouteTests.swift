import Foundation
import OTPServer
import Testing

/// The audit log through the REST API: the events the client endpoints' changes record, with the
/// client's address and user agent, read by an administrator page by page and exported as JSON lines.
@Suite("Audit log through the REST API")
struct AuditRouteTests {
    static let events = "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/auditEvents"
    static let browser = [("User-Agent", "Mozilla/5.0 (audit test)")]

    static func admin(_ server: InProcessServer, _ path: String) async throws -> ServerProcess.Answer {
        try await server.post(path, "", headers: [("Authorization", "Bearer owner")], method: .get)
    }

    static func kinds(_ answer: ServerProcess.Answer) -> [String] {
        (answer.json["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }

    @Test("sign-up, a wrong password, sign-in and an administrator's change, read newest first, filtered, paged and exported oldest first")
    func readAndExport() async throws {
        try await InProcessServer.with { server in
            let signUp = try await server.post(
                ServerProcess.signUpPath, #"{"email":"ada@example.com","password":"long enough","returnSecureToken":true}"#, headers: Self.browser)
            let uid = try #require(signUp.json["localId"] as? String, "\(signUp.body)")
            let wrong = try await server.post(
                ServerProcess.signInPath, #"{"email":"ada@example.com","password":"not it","returnSecureToken":true}"#, headers: Self.browser)
            #expect(wrong.status == 400)
            let signIn = try await server.post(
                ServerProcess.signInPath, #"{"email":"ada@example.com","password":"long enough","returnSecureToken":true}"#, headers: Self.browser)
            #expect(signIn.status == 200)
            let disabled = try await server.send(
                "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:update", #"{"localId":"\#(uid)","disableUser":true}"#,
                bearer: "owner")
            #expect(disabled.status == 200, "\(disabled.body)")

            let page = try await Self.admin(server, Self.events + "?userId=\(uid)")
            #expect(page.status == 200, "\(page.body)")
            #expect(Self.kinds(page) == ["account.disabled", "sign_in", "sign_in.failed", "sign_in", "account.created"], "\(page.body)")
            let events = try #require(page.json["events"] as? [[String: Any]])
            #expect(events.last?["clientAddress"] as? String == "127.0.0.1")
            #expect(events.last?["userAgent"] as? String == "Mozilla/5.0 (audit test)")
            #expect(events.last?["actor"] as? String == "user:\(uid)")
            #expect(events.first?["actor"] as? String == "admin:owner", "the emulator's administrator")
            #expect(events[2]["reason"] as? String == "wrong password" && events[2]["actor"] as? String == "anonymous")
            #expect(page.json["nextPageToken"] == nil, "one page holds them all")
            #expect(!page.body.contains("long enough") && !page.body.contains("not it"), "no password in the log")

            let failures = try await Self.admin(server, Self.events + "?userId=\(uid)&kind=sign_in.failed,account.disabled")
            #expect(Self.kinds(failures) == ["account.disabled", "sign_in.failed"], "\(failures.body)")
            let byAdmin = try await Self.admin(server, Self.events + "?actor=admin:owner")
            #expect(Self.kinds(byAdmin) == ["account.disabled"], "\(byAdmin.body)")

            var pages: [[String]] = []
            var path = Self.events + "?userId=\(uid)&maxResults=2"
            while true {
                let answer = try await Self.admin(server, path)
                try #require(answer.status == 200, "\(answer.body)")
                pages.append(Self.kinds(answer))
                guard let token = answer.json["nextPageToken"] as? String else { break }
                path = Self.events + "?userId=\(uid)&maxResults=2&pageToken=\(token)"
            }
            #expect(pages == [["account.disabled", "sign_in"], ["sign_in.failed", "sign_in"], ["account.created"]])

            let export = try await Self.admin(server, Self.events + ":export?userId=\(uid)")
            #expect(export.status == 200)
            let lines = export.body.split(separator: "\n").map(String.init)
            let exported = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(exported.count == 5 && exported.count == lines.count, "one JSON object a line: \(export.body)")
            #expect(exported.compactMap { $0["kind"] as? String } == ["account.created", "sign_in", "sign_in.failed", "sign_in", "account.disabled"])
            let sequences = exported.compactMap { $0["sequence"] as? Int }
            #expect(sequences == sequences.sorted() && Set(sequences).count == 5, "oldest first, each once")
            #expect(exported.allSatisfy { ($0["time"] as? Int) == Int(server.clock.now()) })
        }
    }

    @Test("a client credential, no credential or another project: refused; bad filters: refused with what to send")
    func refusals() async throws {
        try await InProcessServer.with { server in
            let anonymous = try await server.post(Self.events, "", method: .get)
            #expect(anonymous.status == 401 && anonymous.errorMessage?.hasPrefix("INSUFFICIENT_PERMISSION") == true, "\(anonymous.body)")
            let user = try await server.verifiedUser("bob@example.com")
            let asUser = try await server.post(Self.events, "", headers: [("Authorization", "Bearer " + user.idToken)], method: .get)
            #expect(asUser.status == 401, "an ID token is no administrator's credential: \(asUser.body)")
            let export = try await server.post(Self.events + ":export", "", headers: [("Authorization", "Bearer " + user.idToken)], method: .get)
            #expect(export.status == 401, "\(export.body)")
            let otherProject = try await Self.admin(server, "/identitytoolkit.googleapis.com/v1/projects/other/auditEvents")
            #expect(otherProject.status == 404 && otherProject.errorMessage?.hasPrefix("PROJECT_NOT_FOUND") == true)
            for (query, message) in [
                ("kind=sign_in,bogus", "INVALID_ARGUMENT : kind bogus is not an audit event kind"),
                ("actor=root", "INVALID_ARGUMENT : actor must be user:UID, admin:NAME, anonymous or system"),
                ("since=yesterday", "INVALID_ARGUMENT : since must be a time in Unix seconds"),
                ("maxResults=1001", "INVALID_ARGUMENT : maxResults must be a whole number from 1 to 1000"),
                ("pageToken=abc", "INVALID_PAGE_SELECTION"),
            ] {
                let answer = try await Self.admin(server, Self.events + "?" + query)
                #expect(answer.status == 400 && answer.errorMessage?.hasPrefix(message) == true, "\(query): \(answer.body)")
            }
        }
    }

    @Test("--audit-retention-days takes 1 to 36500 days; --no-audit-log records nothing (the server process, configured)")
    func settings() async throws {
        try await ServerProcess.expectRefusedAtStart([
            (["--audit-retention-days=0"], "--audit-retention-days must be 1 to 36500 days"),
            (["--audit-retention-days", "36501"], "--audit-retention-days must be 1 to 36500 days"),
        ])
        try await ServerProcess.with(arguments: ["--emulator", "--no-audit-log", "--audit-retention-days", "30"]) { server in
            let signUp = try await server.send(ServerProcess.signUpPath, #"{"email":"cy@example.com","password":"long enough"}"#, bearer: nil)
            #expect(signUp.status == 200, "\(signUp.body)")
            let page = try await server.post(Self.events, "", headers: [("Authorization", "Bearer owner")], method: .GET)
            #expect(page.status == 200 && Self.kinds(page).isEmpty, "\(page.body)")
        }
    }

    @Test("an administrator renames and resets a user's second factors through accounts:update's mfa, with a reason the log records")
    func resetSecondFactors() async throws {
        try await InProcessServer.with { server in
            let user = try await server.verifiedUser("dora@example.com")
            let enrolled = try await server.enrollTOTP(user.idToken)
            let update = "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:update"
            let admin = [("Authorization", "Bearer owner"), ("X-OTPKit-Audit-Reason", "phone stolen, ticket 4411")]
            let unknown = try await server.post(
                update, #"{"localId":"\#(user.uid)","mfa":{"enrollments":[{"mfaEnrollmentId":"nope"}]}}"#, headers: admin)
            #expect(unknown.status == 400 && unknown.errorMessage?.hasPrefix("INVALID_ARGUMENT : mfaEnrollmentId nope") == true, "\(unknown.body)")
            let adding = try await server.post(
                update, #"{"localId":"\#(user.uid)","mfa":{"enrollments":[{"phoneInfo":"+12015550123"}]}}"#, headers: admin)
            #expect(adding.status == 400, "\(adding.body)")
            let kept = try await server.post(
                update, #"{"localId":"\#(user.uid)","mfa":{"enrollments":[{"mfaEnrollmentId":"\#(enrolled.enrollmentID)"}]}}"#, headers: admin)
            #expect(kept.status == 200, "\(kept.body)")
            #expect(try await server.mfaInfo(enrolled.idToken)?.count == 1, "the factor listed stays")
            let renamed = try await server.post(
                update,
                #"{"localId":"\#(user.uid)","mfa":{"enrollments":[{"mfaEnrollmentId":"\#(enrolled.enrollmentID)","displayName":"Old phone"}]}}"#,
                headers: admin)
            #expect(renamed.status == 200, "\(renamed.body)")
            #expect(try await server.mfaInfo(enrolled.idToken)?.first?["displayName"] as? String == "Old phone", "a listed factor's new name")
            let renaming = try await Self.admin(server, Self.events + "?userId=\(user.uid)&kind=factor.renamed")
            #expect((renaming.json["events"] as? [[String: Any]])?.map { $0["actor"] as? String } == ["admin:owner"], "\(renaming.body)")
            let reset = try await server.post(update, #"{"localId":"\#(user.uid)","mfa":{}}"#, headers: admin)
            #expect(reset.status == 200, "\(reset.body)")
            let page = try await Self.admin(server, Self.events + "?userId=\(user.uid)&kind=factor.removed")
            let events = try #require(page.json["events"] as? [[String: Any]])
            #expect(events.count == 1, "\(page.body)")
            #expect(events.first?["factorId"] as? String == enrolled.enrollmentID && events.first?["factorKind"] as? String == "totp")
            #expect(events.first?["actor"] as? String == "admin:owner" && events.first?["reason"] as? String == "phone stolen, ticket 4411")
            let lookup = try await server.send(
                "/identitytoolkit.googleapis.com/v1/projects/demo-otpkit/accounts:lookup", #"{"localId":["\#(user.uid)"]}"#, bearer: "owner")
            #expect(((lookup.json["users"] as? [[String: Any]])?.first?["mfaInfo"]) == nil, "no second factor left: \(lookup.body)")
        }
    }
}
