import Foundation
import OTPAuthentication
import OTPServer
import Testing

/// Phone second factors through the pages, in process: a number enrolled with the code the
/// emulator's outbox holds, then a sign-in's second step by a code sent to it.
@Suite("Pages: phone second factors")
struct PagePhoneRouteTests {
    /// The newest code the emulator sent to `number`.
    static func code(_ server: InProcessServer, to number: String) async throws -> String {
        let listed = try await server.get("/emulator/v1/projects/demo-otpkit/verificationCodes")
        let codes = (listed.json["verificationCodes"] as? [[String: Any]] ?? []).filter { $0["phoneNumber"] as? String == number }
        return try #require(codes.last?["code"] as? String, "\(listed.body)")
    }

    @Test("enroll a phone with the code sent to it, then sign in with a code sent to it; the audit log has both")
    func enrollAndSignIn() async throws {
        try await InProcessServer.with(configuration: PageSecurityRouteTests.configuration) { server in
            let browser = PageSecurityRouteTests.Browser(server)
            _ = try await browser.signUp("hana@example.com")
            let details = try #require(try await server.service.administration.accountDetails(email: "hana@example.com"))
            _ = try await server.service.administration.updateAccount(id: details.account.id, isEmailVerified: true)
            let account = try await browser.request("/account")
            #expect(account.body.contains("action=\"/account/phone\""), "the page offers a phone when texts can be sent")
            let sent = try await browser.post("/account/phone", ["csrf": try #require(account.csrf), "number": "+1 201 555 0123"])
            #expect(
                sent.status == 200 && sent.body.contains("+1 201 555 0123"),
                "\(sent.status) \(sent.body.firstMatch(of: #/class="error" role="alert">([^<]*)</#).map { String($0.1) } ?? "")")
            let verification = try #require(sent.body.firstMatch(of: #/name="verification" value="([^"]+)"/#).map { String($0.1) })
            let wrong = try await browser.post(
                "/account/phone/confirm", ["csrf": try #require(sent.csrf), "verification": verification, "code": "000000", "name": "Hana's phone"])
            #expect(wrong.status == 400 && wrong.body.contains("wrong"), "\(wrong.status)")
            let added = try await browser.post(
                "/account/phone/confirm",
                [
                    "csrf": try #require(sent.csrf), "verification": verification, "code": try await Self.code(server, to: "+12015550123"),
                    "name": "Hana's phone",
                ])
            #expect(added.status == 303 && added.location == "/account?done=phoneAdded", "\(added.status) \(added.body)")

            let out = try await browser.post("/account/sign-out", ["csrf": try #require(try await browser.request("/account").csrf)])
            #expect(out.status == 303)
            let form = try await browser.request("/account/sign-in")
            let first = try await browser.post(
                "/account/sign-in", ["csrf": try #require(form.csrf), "email": "hana@example.com", "password": "correct horse battery"])
            #expect(first.location == "/account/second-factor")
            let second = try await browser.request("/account/second-factor")
            let factor = try #require(second.body.firstMatch(of: #/name="factor" value="([^"]+)"/#).map { String($0.1) })
            let codeSent = try await browser.post("/account/second-factor/phone", ["csrf": try #require(second.csrf), "factor": factor])
            #expect(codeSent.status == 200 && codeSent.body.contains("name=\"kind\" value=\"phone\""))
            let signInVerification = try #require(codeSent.body.firstMatch(of: #/name="verification" value="([^"]+)"/#).map { String($0.1) })
            let done = try await browser.post(
                "/account/second-factor",
                [
                    "csrf": try #require(codeSent.csrf), "kind": "phone", "verification": signInVerification,
                    "code": try await Self.code(server, to: "+12015550123"),
                ])
            #expect(done.status == 303 && done.location == "/account", "\(done.status) \(done.body)")
            let events = try await server.service.administration.auditEvents(
                AuditQuery(userID: details.account.id, kinds: [.factorEnrolled, .signedIn]))
            #expect(events.first?.kind == .signedIn && events.first?.factorKind == .phone, "\(events)")
            #expect(events.contains { $0.kind == .factorEnrolled && $0.factorKind == .phone })
        }
    }
}
