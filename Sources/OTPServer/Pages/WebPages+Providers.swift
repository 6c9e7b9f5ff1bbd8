internal import Hummingbird
internal import OTPAuthentication
internal import OTPCore
internal import OTPFederation

// Signing in with an identity provider: the sign-in page's button sends the browser to the
// provider (the authorization code flow with PKCE, a state and a nonce), the provider sends it
// back with a code, the server exchanges the code for the ID token and signs in with it as
// `accounts:signInWithIdp` does: the provider's verifier checks the token and its nonce, a first
// sign-in makes the account, an account with second factors goes on to its second step.
extension WebPages {
    func addProviderRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.get("/account/providers/{provider}") { request, context in
            await pages.startProviderSignIn(request, providerID: context.parameters.get("provider") ?? "")
        }
        router.get("/account/providers/{provider}/callback") { request, context in
            await pages.finishProviderSignIn(request, providerID: context.parameters.get("provider") ?? "")
        }
    }

    /// How long a browser has at the provider before its return is refused.
    static let providerSignInLifetime: Int64 = 600

    /// The sign-in page's buttons, one a provider.
    var providerButtons: [[String: String]] {
        configuration.signInProviders.map { client in
            [
                "path": "/account/providers/" + client.settings.providerID,
                "label": renderer.message("continueWith", ["provider": client.settings.displayName]),
            ]
        }
    }

    /// A link, not a form: the page's policy lets forms post only here, and a browser holds a
    /// form's redirect to the provider to that too. Starting changes nothing but the cookie that
    /// its return must match, so a link someone else made starts nothing they can finish.
    func startProviderSignIn(_ request: Request, providerID: String) async -> Response {
        if await visitor(request) != nil { return Self.redirect("/account") }
        guard let client = signInProvider(providerID) else {
            return await signInPage(request, error: renderer.message("unknownProvider"), status: .notFound)
        }
        let redirectURI = Self.origin(of: request) + "/account/providers/\(providerID)/callback"
        guard let authorization = try? client.authorization(redirectURI: redirectURI),
            let cookie = browser.providerCookie(authorization, providerID: providerID, expiresAt: service.clock.now() + Self.providerSignInLifetime)
        else {
            return await signInPage(request, error: renderer.message("providerUnavailable"), status: .internalServerError)
        }
        return Self.redirect(
            authorization.url, cookies: [BrowserSession.cookie(.provider, cookie, for: request, maxAge: Int(Self.providerSignInLifetime))])
    }

    /// The provider's return: its `state` must be the one this browser's cookie keeps (a return
    /// this browser did not start is refused, so nobody can sign someone else into an account of
    /// theirs), within the lifetime; the cookie is spent either way.
    func finishProviderSignIn(_ request: Request, providerID: String) async -> Response {
        let spent = BrowserSession.cookie(.provider, nil, for: request)
        func refused(_ key: String, status: HTTPResponse.Status = .badRequest) async -> Response {
            await refusal(renderer.message(key), status: status)
        }
        func refusal(_ message: String, status: HTTPResponse.Status) async -> Response {
            var response = await signInPage(request, error: message, status: status)
            response.setCookie(spent)
            return response
        }
        let query = request.uri.queryParameters
        guard let client = signInProvider(providerID),
            let kept = BrowserSession.value(.provider, in: request).flatMap({ browser.openProviderCookie($0, providerID: providerID) }),
            let state = query["state"], ConstantTime.equal(Array(state.utf8), Array(kept.authorization.state.utf8))
        else { return await refused("providerSignInExpired") }
        guard service.clock.now() <= kept.expiresAt else { return await refused("providerSignInExpired") }
        if query["error"] != nil { return await refused("providerDeclined") }
        guard let code = query["code"].map(String.init), !code.isEmpty else { return await refused("providerSignInExpired") }
        do {
            try await routes.throttle.admit(.signIn, address: source)
        } catch {
            return await refused("tooManyAttempts", status: .tooManyRequests)
        }
        let idToken: String
        do throws(OpenIDAuthorizationError) {
            idToken = try await client.idToken(code: code, for: kept.authorization)
        } catch {
            routes.logger.warning("a provider's code could not be exchanged", metadata: ["provider": "\(providerID)", "reason": "\(error)"])
            return await refused("providerUnavailable", status: .badGateway)
        }
        let credential = OAuthProvider.credential(providerID: providerID, idToken: idToken, rawNonce: kept.authorization.nonce)
        var response: Response
        do throws(AuthError) {
            response = signedIn(try await service.signIn(with: credential, source: source).user, request: request)
        } catch {
            switch error.code {
            case .secondFactorRequired:
                guard let resolver = error.resolver else { return await refused("providerUnavailable", status: .internalServerError) }
                response = Self.redirect(
                    "/account/second-factor", cookies: [BrowserSession.cookie(.pending, resolver.pendingCredential, for: request)])
            case .accountExistsWithDifferentCredential:
                return await refused("accountExistsOtherWay", status: .conflict)
            default:
                routes.logger.notice("a provider's sign-in was refused", metadata: ["provider": "\(providerID)", "reason": "\(error.message)"])
                return await refusal(explain(error), status: .badRequest)
            }
        }
        response.setCookie(spent)
        return response
    }

    /// The sign-in provider `providerID` names, if the pages offer it.
    func signInProvider(_ providerID: String) -> OpenIDAuthorizationClient? {
        configuration.signInProviders.first { $0.settings.providerID == providerID }
    }

    /// Where the browser reached this server: the scheme its cookies are `Secure` for, and its
    /// authority, which the provider's registered redirect URI must name.
    static func origin(of request: Request) -> String {
        (BrowserSession.isSecure(request) ? "https://" : "http://") + (request.head.authority ?? "localhost")
    }
}
