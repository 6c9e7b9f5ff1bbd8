import Foundation
import HTTPTypes
import OTPAuthentication
import OTPLoopbackHTTP
import OTPServer
import Testing

/// Signing in on the account page with an identity provider, in process against the test
/// provider's real token endpoint: the whole round trip, the second step of an account with a
/// second factor, and every return that must not sign anyone in (another browser's, a replayed
/// one, a late one, a declined one, a code the provider will not exchange).
@Suite("Pages: signing in with an identity provider")
struct PageProviderRouteTests {
    typealias Browser = PageSecurityRouteTests.Browser

    /// Follows the sign-in page's button to the provider: the authorization URL the browser was sent to.
    static func start(_ browser: Browser, provider: TestIdentityProvider) async throws -> String {
        let page = try await browser.request("/account/sign-in")
        #expect(page.body.contains(#"<a class="button secondary" href="/account/providers/google.com">Continue with Google</a>"#), "\(page.body)")
        let started = try await browser.request("/account/providers/google.com")
        #expect(started.status == 303, "\(started.body)")
        let location = try #require(started.location)
        #expect(location.hasPrefix(provider.authorizationEndpoint + "?"))
        let cookie = try #require(started.headers[values: .setCookie].first { $0.hasPrefix("otpkit-provider=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Max-Age=600"), "\(cookie)")
        return location
    }

    /// The provider's redirect back, as the browser follows it: the path and query on this server.
    static func back(_ location: String) throws -> String {
        let prefix = "http://localhost"
        try #require(location.hasPrefix(prefix + "/account/providers/google.com/callback?"), "\(location)")
        return String(location.dropFirst(prefix.count))
    }

    @Test("the button sends the browser to the provider and its return signs in, making the account; the account page shows it")
    func roundTrip() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let browser = Browser(server)
            let authorization = try await Self.start(browser, provider: provider)
            let back = try Self.back(try provider.approve(authorization, subject: "g-100", email: "gina@example.com"))
            let signedIn = try await browser.request(back)
            #expect(signedIn.status == 303 && signedIn.location == "/account", "\(signedIn.status) \(signedIn.body)")
            #expect(browser.cookies["otpkit-provider"] == nil, "the return spends the cookie")
            let page = try await browser.request("/account")
            #expect(page.status == 200 && page.body.contains("gina@example.com"))
            let details = try #require(try await server.service.administration.accountDetails(email: "gina@example.com"))
            #expect(details.providerData.map(\.providerID).contains(GoogleAuthProvider.id))
            let events = try await server.service.administration.auditEvents(AuditQuery(userID: details.account.id))
            #expect(events.contains { $0.kind == .accountCreated && $0.provider == GoogleAuthProvider.id }, "\(events)")

            // The same return again, by this browser or any other, signs nobody in.
            let session = browser.cookies["otpkit-session"]
            let again = try await browser.request(back)
            #expect(again.location == "/account" && browser.cookies["otpkit-session"] == session, "a replayed return changes no session")
            let stranger = Browser(server)
            let replayed = try await stranger.request(back)
            #expect(replayed.status == 400 && stranger.cookies["otpkit-session"] == nil, "another browser replaying the return")
        }
    }

    @Test("a return this browser did not start (an attacker's own code), a late one and a declined one sign nobody in")
    func refusedReturns() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            // The attacker starts a sign-in of their own and keeps the provider's return for a victim.
            let attacker = Browser(server)
            let attackersReturn = try Self.back(try provider.approve(try await Self.start(attacker, provider: provider), subject: "mallory"))
            let victim = Browser(server)
            _ = try await Self.start(victim, provider: provider)
            let forced = try await victim.request(attackersReturn)
            #expect(forced.status == 400 && forced.body.contains("was not started here"), "\(forced.body)")
            #expect(victim.cookies["otpkit-session"] == nil)
            let none = Browser(server)
            #expect(try await none.request(attackersReturn).status == 400, "a return without the cookie")
            #expect(try await server.service.administration.accountDetails(email: "user@example.com") == nil, "no account made")

            let late = Browser(server)
            let lateReturn = try Self.back(try provider.approve(try await Self.start(late, provider: provider)))
            server.clock.advance(by: 601)
            let expired = try await late.request(lateReturn)
            #expect(expired.status == 400 && late.cookies["otpkit-session"] == nil, "a return after ten minutes")

            let declining = Browser(server)
            let declined = try await declining.request(Self.back(try provider.decline(try await Self.start(declining, provider: provider))))
            #expect(declined.status == 400 && declined.body.contains("did not sign you in") && declining.cookies["otpkit-session"] == nil)

            let unknown = try await Browser(server).request("/account/providers/oidc.nobody")
            #expect(unknown.status == 404)
        }
    }

    @Test("an account with a second factor goes on to its second step after the provider")
    func secondStep() async throws {
        try await InProcessServer.withIdentityProvider { server, provider in
            let browser = Browser(server)
            _ = try await browser.request(Self.back(try provider.approve(try await Self.start(browser, provider: provider), subject: "g-2")))
            let enroll = try await browser.request("/account/totp")
            let key = try #require(enroll.body.firstMatch(of: #/id="shared-key">([A-Z2-7]+)</#).map { String($0.1) })
            let enrollment = try #require(enroll.body.firstMatch(of: #/name="enrollment" value="([^"]+)"/#).map { String($0.1) })
            let added = try await browser.post(
                "/account/totp", ["csrf": try #require(enroll.csrf), "enrollment": enrollment, "name": "Phone", "code": try server.code(key)])
            #expect(added.status == 303, "\(added.body)")
            let signOut = try await browser.post("/account/sign-out", ["csrf": try #require(try await browser.request("/account").csrf)])
            #expect(signOut.status == 303)

            server.clock.advance(by: 30)
            let returned = try await browser.request(
                Self.back(try provider.approve(try await Self.start(browser, provider: provider), subject: "g-2")))
            #expect(returned.status == 303 && returned.location == "/account/second-factor", "\(returned.status) \(returned.body)")
            #expect(browser.cookies["otpkit-session"] == nil && browser.cookies["otpkit-pending"] != nil)
            let step = try await browser.request("/account/second-factor")
            let done = try await browser.post("/account/second-factor", ["csrf": try #require(step.csrf), "code": try server.code(key)])
            #expect(done.status == 303 && done.location == "/account", "\(done.body)")
        }
    }

    @Test("a code the provider will not exchange (the server's secret is not the one registered) signs nobody in, and says so")
    func exchangeRefused() async throws {
        try await InProcessServer.withIdentityProvider(clientSecret: "stale-secret") { server, provider in
            let browser = Browser(server)
            let answer = try await browser.request(Self.back(try provider.approve(try await Self.start(browser, provider: provider))))
            #expect(answer.status == 502 && answer.body.contains("could not complete the sign-in"), "\(answer.body)")
            #expect(!answer.body.contains("stale-secret") && !answer.body.contains("invalid_client"))
            #expect(browser.cookies["otpkit-session"] == nil && browser.cookies["otpkit-provider"] == nil)
        }
    }
}
