internal import Hummingbird
internal import OTPAuthentication

// Phone second factors on the pages, when the server sends text messages: a number enrolled
// with the code sent to it, and a sign-in's second step by a code sent to an enrolled number.
extension WebPages {
    func addPhoneRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.post("/account/phone") { request, _ in await pages.startPhoneEnrollment(request) }
        router.post("/account/phone/confirm") { request, _ in await pages.finishPhoneEnrollment(request) }
        router.post("/account/second-factor/phone") { request, _ in await pages.sendSignInCode(request) }
    }

    var phoneEnabled: Bool { service.configuration.phone.isEnabled }

    /// Runs a service call that sends a code as the REST routes run one: under the emulator,
    /// through its outbox, which lists the code.
    func sendingCode(_ send: () async throws(AuthError) -> String) async throws(AuthError) -> String {
        var failure: AuthError?
        do {
            return try await routes.sendingCode { () async throws(IdentityToolkitError) -> String in
                do throws(AuthError) {
                    return try await send()
                } catch {
                    failure = error
                    throw IdentityToolkitError(error)
                }
            }
        } catch {
            throw failure ?? AuthError(.internalError, "the code could not be sent: try again later")
        }
    }
    var phoneProvider: PhoneAuthProvider { PhoneAuthProvider.provider(service: service) }

    /// The page that asks for the code sent to `number`, carrying the verification it goes with.
    func phoneCodePage(_ request: Request, user: User, number: String, verification: String, error: String? = nil, status: HTTPResponse.Status = .ok)
        -> Response
    {
        var values = common(renderer.message("enrollPhoneTitle"), request: request, user: user, error: error)
        values["number"] = number
        values["verification"] = verification
        values["onAccount"] = true
        return renderer.page("enroll-phone", values, status: status)
    }

    func startPhoneEnrollment(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            let number = form.text("number") ?? ""
            do throws(AuthError) {
                let session = try await user.multiFactor.session()
                let verification = try await sendingCode { () async throws(AuthError) -> String in
                    try await phoneProvider.verifyPhoneNumber(number, multiFactorSession: session)
                }
                return phoneCodePage(request, user: user, number: number, verification: verification)
            } catch {
                return problem(request, user: user, explain(error))
            }
        }
    }

    func finishPhoneEnrollment(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            let verification = form.text("verification") ?? ""
            let credential = phoneProvider.credential(withVerificationID: verification, verificationCode: form.text("code") ?? "")
            do throws(AuthError) {
                try await user.multiFactor.enroll(
                    with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: form.name())
                return Self.redirect("/account?done=phoneAdded")
            } catch {
                if error.code == .invalidVerificationCode {
                    return phoneCodePage(
                        request, user: user, number: form.text("number") ?? "", verification: verification, error: explain(error), status: .badRequest
                    )
                }
                return problem(request, user: user, explain(error))
            }
        }
    }

    /// Sends a code to the phone factor the form names, then shows the second step's page with a
    /// field for it.
    func sendSignInCode(_ request: Request) async -> Response {
        guard let form = await checkedForm(request, user: nil) else { return formRefused(request, user: nil) }
        guard let resolver = await pendingResolver(request) else { return Self.redirect(Self.signInPath) }
        guard let hint = resolver.hints.first(where: { $0.uid == form.text("factor") && $0.kind == .phone }) else {
            return await secondFactorPage(request, error: renderer.message("formExpired"), status: .badRequest)
        }
        do throws(AuthError) {
            let verification = try await sendingCode { () async throws(AuthError) -> String in
                try await phoneProvider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
            }
            return await secondFactorPage(request, codeSent: (hint, verification))
        } catch {
            return await secondFactorPage(request, error: explain(error), status: .badRequest)
        }
    }
}
