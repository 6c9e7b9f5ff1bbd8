internal import Hummingbird
internal import OTPAuthentication

// The links of emailed actions, at the path Firebase's own handler has (`/__/auth/action`, the
// default of `--email-action-url` on this host): an address verified or changed back, a new
// password chosen; and the account page's request for a verification email.
extension WebPages {
    func addEmailActionRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.get("/__/auth/action") { request, _ in await pages.emailAction(request) }
        router.post("/__/auth/action") { request, _ in await pages.resetPassword(request) }
        router.post("/account/verify-email") { request, _ in await pages.sendVerification(request) }
    }

    func actionPage(_ request: Request, title: String, notice: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        anonymousPage(
            "message", title: title, request: request, values: ["link": "/account", "linkLabel": renderer.message("backToAccount")],
            notice: notice, error: error, status: status)
    }

    func emailAction(_ request: Request) async -> Response {
        let parameters = request.uri.queryParameters
        let code = parameters["oobCode"].map(String.init) ?? ""
        switch parameters["mode"].map(String.init) {
        case "verifyEmail", "verifyAndChangeEmail", "recoverEmail":
            do throws(AuthError) {
                try await service.applyActionCode(code)
                return actionPage(request, title: renderer.message("emailVerifiedTitle"), notice: renderer.message("emailVerified"))
            } catch {
                return actionPage(request, title: renderer.message("errorTitle"), error: explain(error), status: .badRequest)
            }
        case "resetPassword":
            return anonymousPage("reset-password", title: renderer.message("resetPasswordTitle"), request: request, values: ["code": code])
        default:
            return actionPage(request, title: renderer.message("errorTitle"), error: renderer.message("unknownLink"), status: .badRequest)
        }
    }

    func resetPassword(_ request: Request) async -> Response {
        guard let form = await checkedForm(request, user: nil) else { return formRefused(request, user: nil) }
        let code = form.text("code") ?? ""
        do throws(AuthError) {
            try await service.confirmPasswordReset(withCode: code, newPassword: form["password"] ?? "")
            return Self.redirect(Self.signInPath + "?done=passwordReset")
        } catch {
            return anonymousPage(
                "reset-password", title: renderer.message("resetPasswordTitle"), request: request, values: ["code": code], error: explain(error),
                status: .badRequest)
        }
    }

    func sendVerification(_ request: Request) async -> Response {
        await signedInForm(request) { user, _ in
            await changed(request, user: user, done: "verificationSent") { () async throws(AuthError) in try await user.sendEmailVerification() }
        }
    }
}
