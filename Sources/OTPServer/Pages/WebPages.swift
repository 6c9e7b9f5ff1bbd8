internal import Foundation
internal import HTTPTypes
internal import OTPCore
public import Hummingbird
public import OTPAuthentication
public import OTPSealing

/// The pages people use, served beside the REST API: the account page (`/account`: sign-up,
/// sign-in with a password or a passkey and then a second factor, and the security settings:
/// second factors, recovery codes, passkeys, sessions, recent activity) and the admin console
/// (`/admin`: users, a user's details and the administrator's actions, the audit log).
///
/// Server-rendered HTML from Mustache templates (hummingbird-project/swift-mustache: logic-less,
/// escaping what it inserts), one small script for passkeys, every string in one message file a
/// language. A browser's sign-in is a cookie naming the store's session (`BrowserSession`), so
/// signing out, an administrator's revocation and the session's lifetimes end it as they end
/// refresh tokens; every form carries a CSRF token; every page forbids inline script, framing and
/// caching. The console is for the accounts ``WebPagesConfiguration/administrators`` names,
/// signed in with a second factor; it does what the admin REST paths do, never more.
public struct WebPages: Sendable {
    let routes: IdentityToolkitRoutes
    let configuration: WebPagesConfiguration
    let browser: BrowserSession
    let renderer: PageRenderer

    /// Pages on `routes`' service, with `keys` (the store's code digest keys, as the routes'
    /// refresh tokens use) for their cookies and forms.
    /// - Throws: When the templates or messages in the binary do not parse (a build defect).
    public init(routes: IdentityToolkitRoutes, keys: SecretSealer, configuration: WebPagesConfiguration) throws {
        self.routes = routes
        self.configuration = configuration
        self.browser = BrowserSession(keys: keys)
        self.renderer = try PageRenderer()
    }

    var service: MultiFactorService { routes.service }

    /// Adds the pages and their assets to `router`.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let pages = self
        router.get("/assets/otpkit.css") { _, _ in
            PageRenderer.response(
                status: .ok, contentType: "text/css; charset=utf-8", body: ByteBuffer(bytes: PackageResources.otpkit_css), cache: true)
        }
        router.get("/assets/pages.js") { _, _ in
            PageRenderer.response(
                status: .ok, contentType: "text/javascript; charset=utf-8", body: ByteBuffer(bytes: PackageResources.pages_js), cache: true)
        }
        // A group of their own, so that only the pages choose a language.
        let group = router.group().add(middleware: PageLanguageMiddleware<Context>(languages: PageRenderer.languages))
        addAccountRoutes(to: group, pages)
        addProviderRoutes(to: group, pages)
        addSecurityRoutes(to: group, pages)
        addPasskeyRoutes(to: group, pages)
        addConsoleRoutes(to: group, pages)
        addEmailActionRoutes(to: group, pages)
        addPhoneRoutes(to: group, pages)
    }

    // MARK: Shared steps

    /// The signed-in user of the request's session cookie, or `nil` (no cookie, one this server did
    /// not make, or a session that ended: signed out, revoked, expired, its account disabled or deleted).
    func visitor(_ request: Request) async -> User? {
        guard let token = BrowserSession.value(.session, in: request), let (sessionID, userID) = browser.open(token) else { return nil }
        return try? await routes.sessionUser(sessionID: sessionID, userID: userID).0
    }

    /// What the request's forms are bound to: the session once signed in, the seed before.
    func binding(_ request: Request, user: User?) -> String? {
        user?.sessionID ?? BrowserSession.value(.seed, in: request)
    }

    /// The form of a POST, its CSRF token checked against the request's binding (the `csrf` field,
    /// or `X-CSRF-Token` for a script's JSON); `nil` for a body too large or a token that does not
    /// match, which the caller refuses without changing anything.
    func checkedForm(_ request: Request, user: User?) async -> PageForm? {
        guard let form = await PageForm.read(request, limit: routes.configuration.maximumBodyBytes) else { return nil }
        let presented = form["csrf"] ?? request.headers.first { $0.name.canonicalName == "x-csrf-token" }?.value
        guard browser.checkCSRF(presented, binding: binding(request, user: user)) else { return nil }
        // A browser says where a request comes from; a cross-site one is refused even with a token.
        if let site = request.headers.first(where: { $0.name.canonicalName == "sec-fetch-site" })?.value, site == "cross-site" { return nil }
        return form
    }

    /// Whether `user` may use the console: an administrator's address, and a sign-in that
    /// completed a second factor.
    func isAdministrator(_ user: User?) -> Bool {
        guard let user, let email = user.email?.lowercased() else { return false }
        return configuration.administrators.contains(email) && user.secondFactorIdentifier != nil
    }

    /// The values every page has: its title, the user's state, its CSRF token.
    func common(_ title: String, request: Request, user: User?, notice: String? = nil, error: String? = nil) -> [String: Any] {
        var values: [String: Any] = [
            "title": title, "signedIn": user != nil, "administrator": isAdministrator(user), "nameLength": PageForm.maximumNameLength,
            "reasonLength": AuditEvent.maximumReasonLength,
        ]
        if let binding = binding(request, user: user) { values["csrf"] = browser.csrfToken(for: binding) }
        if let notice { values["notice"] = notice }
        if let error { values["error"] = error }
        return values
    }

    /// A redirect after a form (303, so the browser follows with GET), with `cookies` set.
    static func redirect(_ location: String, cookies: [Cookie] = []) -> Response {
        var response = PageRenderer.response(status: .seeOther, contentType: "text/plain; charset=utf-8", body: ByteBuffer())
        response.headers[.location] = location
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// The page that says a form could not be taken (a stale or forged CSRF token, a body too
    /// large): 403, nothing changed.
    func formRefused(_ request: Request, user: User?) -> Response {
        var values = common(renderer.message("forbiddenTitle"), request: request, user: user, error: renderer.message("formExpired"))
        values["link"] = user == nil ? "/account/sign-in" : "/account"
        values["linkLabel"] = renderer.message(user == nil ? "signInAgain" : "backToAccount")
        return renderer.page("message", values, status: .forbidden)
    }

    /// The sign-in page's address, for a request that needs a session and has none.
    static let signInPath = "/account/sign-in"

    /// An `AuthError` as the message a person reads: the page's own words for the errors people
    /// make, the service's message otherwise.
    func explain(_ error: AuthError) -> String {
        switch error.code {
        case .wrongPassword, .userNotFound, .invalidCredential: renderer.message("wrongCredentials")
        case .invalidVerificationCode: renderer.message("wrongCode")
        case .tooManyRequests: renderer.message("tooManyAttempts")
        case .userDisabled: renderer.message("accountDisabledSignIn")
        case .emailAlreadyInUse: renderer.message("emailInUse")
        case .invalidEmail: renderer.message("invalidEmail")
        case .weakPassword: renderer.message("weakPassword")
        case .unverifiedEmail: renderer.message("unverifiedEmail")
        case .requiresRecentLogin: renderer.message("recentSignInNeeded")
        default: error.message
        }
    }

    /// A Unix time as people read it, in UTC (`2026-11-29 21:33`), and as `<time datetime>` wants it.
    static func time(_ seconds: Int64) -> (text: String, iso: String) {
        let iso = Timestamp.format(seconds)
        return (String(iso.prefix(10)) + " " + iso.dropFirst(11).prefix(8) + " UTC", iso)
    }
}
