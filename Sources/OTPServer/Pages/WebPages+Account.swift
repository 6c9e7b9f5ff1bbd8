internal import Foundation
internal import Hummingbird
internal import OTPAuthentication

// Signing up, signing in (a password, then the second factor the account needs) and out.
extension WebPages {
    func addAccountRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.get("/account/sign-in") { request, _ in await pages.signInPage(request) }
        router.post("/account/sign-in") { request, _ in await pages.signIn(request) }
        router.get("/account/sign-up") { request, _ in await pages.signUpPage(request) }
        router.post("/account/sign-up") { request, _ in await pages.signUp(request) }
        router.get("/account/second-factor") { request, _ in await pages.secondFactorPage(request) }
        router.post("/account/second-factor") { request, _ in await pages.secondFactor(request) }
        router.post("/account/sign-out") { request, _ in await pages.signOut(request) }
    }

    /// The client's address as the throttles count it, which the routes' middleware worked out
    /// for this request (`AuditContextMiddleware`).
    var source: String? { AuditContext.active.clientAddress }

    /// The seed the request's pre-sign-in forms are bound to, and the cookie that sets it when the
    /// browser has none yet.
    func seed(_ request: Request) -> (String?, Cookie?) {
        if let seed = BrowserSession.value(.seed, in: request) { return (seed, nil) }
        guard let seed = BrowserSession.newSeed() else { return (nil, nil) }
        return (seed, BrowserSession.cookie(.seed, seed, for: request))
    }

    /// A pre-sign-in page, with the seed cookie its forms need.
    func anonymousPage(
        _ template: String, title: String, request: Request, values: [String: Any], notice: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let (seed, cookie) = seed(request)
        var page = common(title, request: request, user: nil, notice: notice, error: error)
        if let seed { page["csrf"] = browser.csrfToken(for: seed) }
        page.merge(values) { _, new in new }
        var response = renderer.page(template, page, status: status)
        if let cookie { response.setCookie(cookie) }
        return response
    }

    func signInPage(_ request: Request, email: String = "", error: String? = nil, status: HTTPResponse.Status = .ok) async -> Response {
        if await visitor(request) != nil { return Self.redirect("/account") }
        let done = request.uri.queryParameters["done"].map(String.init).flatMap { $0 == "passwordReset" ? $0 : nil }
        var values: [String: Any] = ["email": email]
        if configuration.offersPasskeys { values.merge(["passkeys": true, "script": "pages.js"]) { _, new in new } }
        values["providers"] = providerButtons
        values["hasProviders"] = !configuration.signInProviders.isEmpty
        return anonymousPage(
            "sign-in", title: renderer.message("signInTitle"), request: request, values: values, notice: done.map(renderer.message), error: error,
            status: status)
    }

    func signUpPage(_ request: Request, email: String = "", error: String? = nil, status: HTTPResponse.Status = .ok) async -> Response {
        if await visitor(request) != nil { return Self.redirect("/account") }
        return anonymousPage(
            "sign-up", title: renderer.message("signUpTitle"), request: request, values: ["email": email], error: error, status: status)
    }

    func signIn(_ request: Request) async -> Response {
        guard let form = await checkedForm(request, user: nil) else { return formRefused(request, user: nil) }
        let email = form.text("email") ?? ""
        do {
            try await routes.throttle.admit(.signIn, address: source)
            try await routes.throttle.admit(.signIn, account: email.lowercased())
        } catch {
            return await signInPage(request, email: email, error: renderer.message("tooManyAttempts"), status: .tooManyRequests)
        }
        do throws(AuthError) {
            let user = try await service.signIn(withEmail: email, password: form["password"] ?? "", source: source)
            return signedIn(user, request: request)
        } catch  where error.code == .secondFactorRequired {
            guard let resolver = error.resolver else {
                return await signInPage(request, email: email, error: error.message, status: .internalServerError)
            }
            return Self.redirect("/account/second-factor", cookies: [BrowserSession.cookie(.pending, resolver.pendingCredential, for: request)])
        } catch {
            return await signInPage(request, email: email, error: explain(error), status: .badRequest)
        }
    }

    func signUp(_ request: Request) async -> Response {
        guard let form = await checkedForm(request, user: nil) else { return formRefused(request, user: nil) }
        let email = form.text("email") ?? ""
        do {
            try await routes.throttle.admit(.signUp, address: source)
        } catch {
            return await signUpPage(request, email: email, error: renderer.message("tooManyAttempts"), status: .tooManyRequests)
        }
        do throws(AuthError) {
            return signedIn(try await service.createUser(withEmail: email, password: form["password"] ?? ""), request: request)
        } catch {
            return await signUpPage(request, email: email, error: explain(error), status: .badRequest)
        }
    }

    /// The answer to a completed sign-in: the new session's cookie (a new session id at every
    /// sign-in, so a cookie planted before it is worth nothing), the pending step and the seed
    /// forgotten, and the account page.
    func signedIn(_ user: User, request: Request, location: String = "/account") -> Response {
        guard let cookies = signedInCookies(user, request: request) else { return Self.redirect(Self.signInPath) }
        return Self.redirect(location, cookies: cookies)
    }

    /// The cookies of a completed sign-in: the session's, and the pending step and seed forgotten.
    func signedInCookies(_ user: User, request: Request) -> [Cookie]? {
        guard let token = browser.token(sessionID: user.sessionID, userID: user.uid) else { return nil }
        return [
            BrowserSession.cookie(.session, token, for: request), BrowserSession.cookie(.pending, nil, for: request),
            BrowserSession.cookie(.seed, nil, for: request),
        ]
    }

    /// The pending sign-in of the request's cookie, or `nil` when there is none or it ran out.
    func pendingResolver(_ request: Request) async -> MultiFactorResolver? {
        guard let pending = BrowserSession.value(.pending, in: request) else { return nil }
        return try? await service.resolver(forPendingCredential: pending)
    }

    /// The second step's page: a form for each kind of factor the account has; with `codeSent`,
    /// the field for the code just sent to that phone factor.
    func secondFactorPage(
        _ request: Request, codeSent: (hint: MultiFactorInfo, verification: String)? = nil, error: String? = nil, status: HTTPResponse.Status = .ok
    ) async -> Response {
        guard let resolver = await pendingResolver(request) else { return Self.redirect(Self.signInPath) }
        func rows(_ kind: FactorKind) -> [[String: Any]] {
            resolver.hints.filter { $0.kind == kind }.enumerated().map { index, hint in
                ["id": hint.uid, "name": hint.displayName ?? renderer.message("kinds", kind.rawValue), "first": index == 0]
            }
        }
        let totp = rows(.totp)
        let webauthn = rows(.webauthn)
        let phone = resolver.hints.filter { $0.kind == .phone }.map { hint -> [String: Any] in
            ["id": hint.uid, "name": hint.displayName ?? renderer.message("kinds", "phone"), "number": hint.phoneNumber ?? ""]
        }
        var values: [String: Any] = ["script": "pages.js"]
        if !phone.isEmpty { values["phone"] = ["factors": phone] }
        if let codeSent {
            values["codeSent"] = ["number": codeSent.hint.phoneNumber ?? "", "verification": codeSent.verification, "factor": codeSent.hint.uid]
        }
        if !totp.isEmpty { values["totp"] = ["factors": totp] }
        if !webauthn.isEmpty { values["webauthn"] = ["factors": webauthn] }
        return anonymousPage(
            "second-factor", title: renderer.message("secondFactorTitle"), request: request, values: values, error: error, status: status)
    }

    func secondFactor(_ request: Request) async -> Response {
        guard let form = await checkedForm(request, user: nil) else { return formRefused(request, user: nil) }
        guard let resolver = await pendingResolver(request) else { return Self.redirect(Self.signInPath) }
        do {
            try await routes.throttle.admit(.verification, address: source)
        } catch {
            return await secondFactorPage(request, error: renderer.message("tooManyAttempts"), status: .tooManyRequests)
        }
        let code = form.text("code") ?? ""
        do throws(AuthError) {
            let result: AuthDataResult
            if form["kind"] == "recovery" {
                result = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withCode: code))
            } else if form["kind"] == "phone" {
                let credential = phoneProvider.credential(withVerificationID: form.text("verification") ?? "", verificationCode: code)
                result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential))
            } else {
                let factor = form.text("factor") ?? resolver.hints.first { $0.kind == .totp }?.uid ?? ""
                result = try await resolver.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: factor, oneTimePassword: code))
            }
            return signedIn(result.user, request: request)
        } catch {
            if error.code == .invalidMultiFactorSession || error.code == .sessionExpired { return Self.redirect(Self.signInPath) }
            return await secondFactorPage(request, error: explain(error), status: .badRequest)
        }
    }

    func signOut(_ request: Request) async -> Response {
        let user = await visitor(request)
        guard await checkedForm(request, user: user) != nil else { return formRefused(request, user: user) }
        try? await user?.signOut()
        return Self.redirect(Self.signInPath, cookies: [BrowserSession.cookie(.session, nil, for: request)])
    }
}
