import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OTPAuthentication
import OTPServer
import Testing

/// The pages against what attacks them, in process: forged and missing CSRF tokens, missing and
/// replayed cookies, script in every field, the console from a user's session, the account page
/// from nobody's, planted sessions, cookie attributes and headers, and the throttles. Each
/// refusal changes nothing.
@Suite("Pages: web security")
struct PageSecurityRouteTests {
    /// A browser without JavaScript: cookies kept per name, forms posted as a browser posts them.
    final class Browser: @unchecked Sendable {
        let server: InProcessServer
        var cookies: [String: String] = [:]

        init(_ server: InProcessServer) {
            self.server = server
        }

        struct Page {
            let status: Int
            let body: String
            let headers: HTTPFields
            var location: String? { headers[.location] }
            /// The CSRF token of the page's first form.
            var csrf: String? {
                body.firstMatch(of: #/name="csrf" value="([^"]*)"/#).map { String($0.1) }
            }
        }

        func request(_ path: String, method: HTTPRequest.Method = .get, form: [String: String]? = nil, headers extra: [(String, String)] = [])
            async throws -> Page
        {
            var headers: HTTPFields = [:]
            if !cookies.isEmpty { headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
            var body: ByteBuffer?
            if let form {
                headers[.contentType] = "application/x-www-form-urlencoded"
                var components = URLComponents()
                components.queryItems = form.map { URLQueryItem(name: $0.key, value: $0.value) }
                // As a browser encodes a form: a plus sign is data, a space is the plus.
                body = ByteBuffer(string: (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B"))
            }
            for (name, value) in extra { headers[HTTPField.Name(name)!] = value }
            let response = try await server.client.execute(uri: path, method: method, headers: headers, body: body)
            for field in response.headers where field.name == .setCookie {
                let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                let name = String(pair[0])
                let value = pair.count > 1 ? String(pair[1]) : ""
                if field.value.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
            }
            return Page(status: Int(response.status.code), body: String(buffer: response.body), headers: response.headers)
        }

        func post(_ path: String, _ form: [String: String], headers: [(String, String)] = []) async throws -> Page {
            try await request(path, method: .post, form: form, headers: headers)
        }

        /// Signs up on the page and returns the account page's CSRF token.
        func signUp(_ email: String, password: String = "correct horse battery") async throws -> String {
            let page = try await request("/account/sign-up")
            let done = try await post("/account/sign-up", ["csrf": try #require(page.csrf), "email": email, "password": password])
            #expect(done.status == 303 && done.location == "/account", "\(done.status) \(done.body)")
            return try #require(try await request("/account").csrf)
        }
    }

    static let configuration = MultiFactorConfiguration(
        passwords: PasswordSettings(hashParameters: try! PasswordHashParameters(logN: 10, r: 8, p: 1)))

    @Test("forged, missing and another browser's CSRF tokens are refused, and nothing changes")
    func csrf() async throws {
        try await InProcessServer.with(configuration: Self.configuration) { server in
            let browser = Browser(server)
            let signUpPage = try await browser.request("/account/sign-up")
            let forged = try await browser.post("/account/sign-up", ["csrf": "forged", "email": "eve@example.com", "password": "long enough 1"])
            #expect(forged.status == 403 && forged.body.contains("out of date or was not sent by this site"), "\(forged.status)")
            let missing = try await browser.post("/account/sign-up", ["email": "eve@example.com", "password": "long enough 1"])
            #expect(missing.status == 403)
            #expect(try await server.service.administration.accountDetails(email: "eve@example.com") == nil, "no account made")

            // A token of another browser (its own seed) is not this one's.
            let other = Browser(server)
            let othersToken = try #require(try await other.request("/account/sign-up").csrf)
            #expect(othersToken != signUpPage.csrf)
            let crossed = try await browser.post("/account/sign-up", ["csrf": othersToken, "email": "eve@example.com", "password": "long enough 1"])
            #expect(crossed.status == 403)

            // Signed in: the session's token, not the seed's, and a cross-site request even with it.
            let token = try await browser.signUp("ada@example.com")
            let user = try #require(try await server.service.administration.accountDetails(email: "ada@example.com"))
            let stale = try await browser.post("/account/sessions/end-others", ["csrf": try #require(signUpPage.csrf)])
            #expect(stale.status == 403, "the sign-up form's token after the sign-in")
            let crossSite = try await browser.post("/account/sessions/end-others", ["csrf": token], headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(crossSite.status == 403)
            let signOut = try await browser.post("/account/sign-out", ["csrf": "forged"])
            #expect(signOut.status == 403)
            #expect(try await browser.request("/account").status == 200, "still signed in after a forged sign-out")
            #expect(try await server.service.administration.sessions(accountID: user.account.id).count == 1)
        }
    }

    @Test("without a session the account page and its forms send the browser to sign in; a replayed cookie after sign-out is nobody's")
    func sessions() async throws {
        try await InProcessServer.with(configuration: Self.configuration) { server in
            let nobody = Browser(server)
            let account = try await nobody.request("/account")
            #expect(account.status == 303 && account.location == "/account/sign-in")
            let post = try await nobody.post("/account/recovery-codes", ["csrf": "x"])
            #expect(post.status == 303 && post.location == "/account/sign-in")
            let console = try await nobody.request("/admin")
            #expect(console.status == 303 && console.location == "/account/sign-in")

            let browser = Browser(server)
            let token = try await browser.signUp("bob@example.com")
            let cookie = try #require(browser.cookies["otpkit-session"])
            let out = try await browser.post("/account/sign-out", ["csrf": token])
            #expect(out.status == 303 && browser.cookies["otpkit-session"] == nil, "the cookie is cleared")
            // The cookie as an attacker kept it: its session ended in the store.
            browser.cookies["otpkit-session"] = cookie
            let replayed = try await browser.request("/account")
            #expect(replayed.status == 303 && replayed.location == "/account/sign-in")
            let replayedPost = try await browser.post("/account/recovery-codes", ["csrf": token])
            #expect(replayedPost.status == 303)
            let details = try #require(try await server.service.administration.accountDetails(email: "bob@example.com"))
            #expect(try await server.service.administration.recoveryCodeCount(accountID: details.account.id) == 0, "nothing was made")
        }
    }

    @Test("a session cookie planted before the sign-in is replaced by the sign-in's own")
    func fixation() async throws {
        try await InProcessServer.with(configuration: Self.configuration) { server in
            let attacker = Browser(server)
            _ = try await attacker.signUp("mallory@example.com")
            let planted = try #require(attacker.cookies["otpkit-session"])
            let victim = Browser(server)
            _ = try await victim.signUp("carol@example.com")
            _ = try await victim.post("/account/sign-out", ["csrf": try #require(try await victim.request("/account").csrf)])
            victim.cookies["otpkit-session"] = planted
            victim.cookies["otpkit-seed"] = nil
            let page = try await victim.request("/account/sign-in")
            #expect(page.status == 303, "the planted session is the attacker's, signed in")
            // Signing in anew (the planted cookie's session ended meanwhile) gives a cookie of its own.
            _ = try await attacker.post("/account/sign-out", ["csrf": try #require(try await attacker.request("/account").csrf)])
            let form = try await victim.request("/account/sign-in")
            let signedIn = try await victim.post(
                "/account/sign-in", ["csrf": try #require(form.csrf), "email": "carol@example.com", "password": "correct horse battery"])
            #expect(signedIn.status == 303 && signedIn.location == "/account")
            #expect(victim.cookies["otpkit-session"] != planted)
            #expect(try await victim.request("/account").body.contains("carol@example.com"))
        }
    }

    @Test("script in every field a person types comes back as text")
    func escaping() async throws {
        try await InProcessServer.with(configuration: Self.configuration) { server in
            let browser = Browser(server)
            let script = "<script>alert(1)</script>"
            let signUp = try await browser.request("/account/sign-up")
            // Refused (the page repeats the address) or taken as an address (the account page shows it): as text either way.
            let answer = try await browser.post(
                "/account/sign-up", ["csrf": try #require(signUp.csrf), "email": "x\(script)@example.com", "password": "long enough 1"])
            let shown = answer.status == 303 ? try await browser.request("/account") : answer
            #expect(shown.body.contains("x&lt;script&gt;alert(1)&lt;/script&gt;@example.com") && !shown.body.contains(script), "\(shown.body)")
            if answer.status == 303 { _ = try await browser.post("/account/sign-out", ["csrf": try #require(shown.csrf)]) }
            let signIn = try await browser.request("/account/sign-in")
            let wrong = try await browser.post("/account/sign-in", ["csrf": try #require(signIn.csrf), "email": "\"><\(script)", "password": "x"])
            #expect(!wrong.body.contains(script) && !wrong.body.contains("\"><"), "\(wrong.body)")

            // A factor named with script, as the enrollment form sends it.
            _ = try await browser.signUp("dan@example.com")
            let details = try #require(try await server.service.administration.accountDetails(email: "dan@example.com"))
            _ = try await server.service.administration.updateAccount(id: details.account.id, isEmailVerified: true)
            let enroll = try await browser.request("/account/totp")
            let key = try #require(enroll.body.firstMatch(of: #/id="shared-key">([A-Z2-7]+)</#).map { String($0.1) })
            let enrollment = try #require(enroll.body.firstMatch(of: #/name="enrollment" value="([^"]+)"/#).map { String($0.1) })
            let added = try await browser.post(
                "/account/totp",
                ["csrf": try #require(enroll.csrf), "enrollment": enrollment, "name": script, "code": try server.code(key)])
            #expect(added.status == 303, "\(added.body)")
            let page = try await browser.request("/account?done=factorAdded")
            #expect(!page.body.contains(script) && page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            // Renamed on the page: refused with a forged token, then taken, the new name as text too.
            let factor = try #require(page.body.firstMatch(of: #/name="factor" value="([^"]+)"/#).map { String($0.1) })
            let forged = try await browser.post("/account/factors/rename", ["csrf": "forged", "factor": factor, "name": "Forged"])
            #expect(forged.status == 403)
            let renamed = try await browser.post(
                "/account/factors/rename", ["csrf": try #require(page.csrf), "factor": factor, "name": "Phone \"\(script)"])
            #expect(renamed.status == 303 && renamed.location == "/account?done=factorRenamed", "\(renamed.status) \(renamed.body)")
            #expect(
                try await server.service.administration.enrolledFactors(accountID: details.account.id).map(\.displayName) == ["Phone \"\(script)"])
            let after = try await browser.request("/account?done=factorRenamed")
            #expect(
                !after.body.contains(script) && after.body.contains("value=\"Phone &quot;&lt;script&gt;alert(1)&lt;/script&gt;\""), "\(after.body)")
            #expect(after.body.contains("The second factor was renamed."))
            let unknown = try await browser.post("/account/factors/rename", ["csrf": try #require(page.csrf), "factor": "nope", "name": "x"])
            #expect(unknown.status >= 400, "a factor the user does not have")
            // A notice from the query is one of the page's own, never the link's text.
            let injected = try await browser.request("/account?done=%3Cscript%3Ealert(1)%3C/script%3E")
            #expect(!injected.body.contains("class=\"notice\""))
        }
    }

    @Test("the console refuses a user's session, and one of an administrator signed in without a second factor")
    func console() async throws {
        try await InProcessServer.with(configuration: Self.configuration, pages: WebPagesConfiguration(administrators: ["Root@Example.com"])) {
            server in
            let user = Browser(server)
            _ = try await user.signUp("erin@example.com")
            let page = try await user.request("/admin")
            #expect(page.status == 403 && page.body.contains("administrators the operator named"))
            let target = try #require(try await server.service.administration.accountDetails(email: "erin@example.com"))
            let action = try await user.post("/admin/users/\(target.account.id)/delete", ["csrf": try #require(page.csrf), "confirm": "yes"])
            #expect(action.status == 403)
            let root = Browser(server)
            _ = try await root.signUp("root@example.com")
            #expect(try await root.request("/admin").status == 403, "an administrator's address without a second factor")
            #expect(try await root.request("/admin/audit.jsonl").status == 403)
            #expect(try await server.service.administration.accountDetails(id: target.account.id) != nil, "nothing was deleted")
        }
    }

    @Test("cookies HttpOnly, SameSite=Lax, Path=/, without Secure on loopback; every page's headers forbid inline script, framing and caching")
    func cookiesAndHeaders() async throws {
        try await InProcessServer.with(configuration: Self.configuration) { server in
            let browser = Browser(server)
            let page = try await browser.request("/account/sign-in")
            let seed = try #require(page.headers[.setCookie])
            #expect(seed.hasPrefix("otpkit-seed=") && seed.contains("HttpOnly") && seed.contains("SameSite=Lax") && seed.contains("Path=/"))
            #expect(!seed.contains("Secure"), "loopback has no TLS: \(seed)")
            _ = try await browser.signUp("fay@example.com")
            for path in ["/account/sign-in", "/account/sign-up", "/account", "/account/totp", "/admin"] {
                let answer = try await browser.request(path)
                let policy = answer.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe"), "\(path)")
                #expect(answer.headers[HTTPField.Name("X-Frame-Options")!] == "DENY" && answer.headers[.cacheControl] == "no-store", "\(path)")
                #expect(!answer.body.contains("<script>") && !answer.body.contains("style="), "\(path): nothing inline")
            }
        }
    }

    @Test("a name other than loopback gets Secure cookies with the __Host- prefix (the server process, addressed by another name)")
    func secureCookies() async throws {
        try await ServerProcess.with(arguments: ["--api-key", "demo-key"]) { server in
            let answer = try await server.headers("/account/sign-in", host: "auth.example.com")
            let cookie = answer.first { $0.0.lowercased() == "set-cookie" }?.1 ?? ""
            #expect(cookie.hasPrefix("__Host-otpkit-seed=") && cookie.contains("Secure") && cookie.contains("HttpOnly"), "\(cookie)")
            #expect(cookie.contains("SameSite=Lax") && cookie.contains("Path=/") && !cookie.contains("Domain"), "\(cookie)")
        }
    }

    @Test("the sign-in form is throttled per address as the REST API is")
    func throttled() async throws {
        var limits = RequestLimits.none
        limits.signInsPerAddress = 3
        try await InProcessServer.with(configuration: Self.configuration, limits: limits) { server in
            let browser = Browser(server)
            var statuses: [Int] = []
            for _ in 0..<5 {
                let form = try await browser.request("/account/sign-in")
                let answer = try await browser.post(
                    "/account/sign-in", ["csrf": try #require(form.csrf), "email": "gus@example.com", "password": "wrong password"])
                statuses.append(answer.status)
            }
            #expect(statuses == [400, 400, 400, 429, 429], "\(statuses)")
        }
    }
}
