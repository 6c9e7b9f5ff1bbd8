internal import Foundation
internal import Hummingbird
internal import OTPAuthentication
internal import OTPSealing

// What the page's script asks for passkeys: options for the browser, then the browser's answer.
// JSON both ways, each POST with the form's CSRF token in X-CSRF-Token.
extension WebPages {
    func addPasskeyRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.post("/account/passkeys/options") { request, _ in await pages.passkeyCreationOptions(request) }
        router.post("/account/passkeys") { request, _ in await pages.addPasskey(request) }
        router.post("/account/security-keys/options") { request, _ in await pages.securityKeyCreationOptions(request) }
        router.post("/account/security-keys") { request, _ in await pages.addSecurityKey(request) }
        router.post("/account/passkeys/rename") { request, _ in await pages.renamePasskey(request) }
        router.post("/account/passkeys/remove") { request, _ in await pages.removePasskey(request) }
        router.post("/account/passkey-sign-in/options") { request, _ in await pages.passkeySignInOptions(request) }
        router.post("/account/passkey-sign-in") { request, _ in await pages.passkeySignIn(request) }
        router.post("/account/second-factor/passkey/options") { request, _ in await pages.passkeyFactorOptions(request) }
        router.post("/account/second-factor/passkey") { request, _ in await pages.passkeyFactor(request) }
    }

    /// What the script sends: the browser's credential, and for a second factor which one.
    struct CredentialBody<Response: Decodable>: Decodable {
        var credential: Wire.PublicKeyCredential<Response>?
        var factor: String?
    }

    static func jsonAnswer(_ value: some Encodable, status: HTTPResponse.Status = .ok, cookies: [Cookie] = []) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
        var response = PageRenderer.response(status: status, contentType: "application/json", body: ByteBuffer(bytes: Array(data)))
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    struct Problem: Encodable {
        var message: String
    }

    struct Location: Encodable {
        var location: String
    }

    func jsonProblem(_ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        Self.jsonAnswer(Problem(message: message), status: status)
    }

    /// The JSON of a script's POST, its CSRF token checked against `user`'s session (or the seed).
    func checkedJSON<Body: Decodable>(_ request: Request, user: User?, as type: Body.Type) async -> Body? {
        guard let form = await checkedForm(request, user: user) else { return nil }
        return try? JSONDecoder().decode(Body.self, from: Data(form.raw.isEmpty ? Array("{}".utf8) : form.raw))
    }

    func passkeyCreationOptions(_ request: Request) async -> Response {
        await creationOptions(request) { (user) async throws(AuthError) in try await user.startPasskeyEnrollment() }
    }

    func addPasskey(_ request: Request) async -> Response {
        await register(request, done: "passkeyAdded") { (user, response) async throws(AuthError) in
            try await user.finalizePasskeyEnrollment(response, name: nil)
        }
    }

    /// Options that enroll a passkey or security key as a second factor (`webauthn`).
    func securityKeyCreationOptions(_ request: Request) async -> Response {
        await creationOptions(request) { (user) async throws(AuthError) in
            try await WebAuthnMultiFactorGenerator.creationOptions(with: try await user.multiFactor.session())
        }
    }

    func addSecurityKey(_ request: Request) async -> Response {
        await register(request, done: "securityKeyAdded") { (user, response) async throws(AuthError) in
            try await user.multiFactor.enroll(
                with: WebAuthnMultiFactorGenerator.assertionForEnrollment(with: response), displayName: renderer.message("kinds", "webauthn"))
        }
    }

    /// The options `start` makes for a signed-in visitor's new credential, as the script's JSON.
    func creationOptions(_ request: Request, start: (User) async throws(AuthError) -> PasskeyCreationOptions) async -> Response {
        guard let user = await visitor(request) else { return jsonProblem(renderer.message("sessionExpired"), status: .unauthorized) }
        guard await checkedForm(request, user: user) != nil else { return jsonProblem(renderer.message("formExpired"), status: .forbidden) }
        do throws(AuthError) {
            return Self.jsonAnswer(Wire.CreationOptions(try await start(user)))
        } catch {
            return jsonProblem(explain(error))
        }
    }

    /// The browser's new credential, given to `finish`; then the account page with notice `done`.
    func register(
        _ request: Request, done: String, finish: (User, PasskeyRegistrationResponse) async throws(AuthError) -> Void
    ) async -> Response {
        guard let user = await visitor(request) else { return jsonProblem(renderer.message("sessionExpired"), status: .unauthorized) }
        guard let body = await checkedJSON(request, user: user, as: CredentialBody<Wire.AttestationResponse>.self) else {
            return jsonProblem(renderer.message("formExpired"), status: .forbidden)
        }
        let response: PasskeyRegistrationResponse
        do throws(IdentityToolkitError) {
            response = try Wire.registration(body.credential)
        } catch {
            return jsonProblem(error.detail)
        }
        do throws(AuthError) {
            try await finish(user, response)
        } catch {
            return jsonProblem(explain(error))
        }
        return Self.jsonAnswer(Location(location: "/account?done=\(done)"))
    }

    func renamePasskey(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            guard let id = form.text("passkey").flatMap(Base64URL.decode), let name = form.name() else {
                return problem(request, user: user, renderer.message("formExpired"))
            }
            return await changed(request, user: user, done: "passkeyRenamed") { () async throws(AuthError) in
                try await user.renamePasskey(withCredentialID: id, to: name)
            }
        }
    }

    func removePasskey(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            guard let id = form.text("passkey").flatMap(Base64URL.decode) else {
                return problem(request, user: user, renderer.message("formExpired"))
            }
            return await changed(request, user: user, done: "passkeyRemoved") { () async throws(AuthError) in
                try await user.unenrollPasskey(withCredentialID: id)
            }
        }
    }

    func passkeySignInOptions(_ request: Request) async -> Response {
        guard await checkedForm(request, user: nil) != nil else { return jsonProblem(renderer.message("formExpired"), status: .forbidden) }
        do throws(AuthError) {
            return Self.jsonAnswer(Wire.RequestOptions(try await service.startPasskeySignIn()))
        } catch {
            return jsonProblem(explain(error))
        }
    }

    func passkeySignIn(_ request: Request) async -> Response {
        guard let body = await checkedJSON(request, user: nil, as: CredentialBody<Wire.AssertionResponse>.self) else {
            return jsonProblem(renderer.message("formExpired"), status: .forbidden)
        }
        do throws(IdentityToolkitError) {
            let assertion = try Wire.assertion(body.credential)
            do throws(AuthError) {
                let result = try await service.finalizePasskeySignIn(assertion)
                return signedInJSON(result.user, request: request)
            } catch {
                return jsonProblem(explain(error))
            }
        } catch {
            return jsonProblem(error.detail)
        }
    }

    /// ``signedIn(_:request:location:)`` for a script: the cookies, and where to go in the body.
    func signedInJSON(_ user: User, request: Request) -> Response {
        guard let cookies = signedInCookies(user, request: request) else { return jsonProblem("", status: .internalServerError) }
        return Self.jsonAnswer(Location(location: "/account"), cookies: cookies)
    }

    func passkeyFactorOptions(_ request: Request) async -> Response {
        guard let body = await checkedJSON(request, user: nil, as: CredentialBody<Wire.AssertionResponse>.self) else {
            return jsonProblem(renderer.message("formExpired"), status: .forbidden)
        }
        guard let resolver = await pendingResolver(request) else { return jsonProblem(renderer.message("sessionExpired"), status: .unauthorized) }
        do throws(AuthError) {
            return Self.jsonAnswer(
                Wire.RequestOptions(try await WebAuthnMultiFactorGenerator.requestOptions(for: resolver, enrollmentID: body.factor ?? "")))
        } catch {
            return jsonProblem(explain(error))
        }
    }

    func passkeyFactor(_ request: Request) async -> Response {
        guard let body = await checkedJSON(request, user: nil, as: CredentialBody<Wire.AssertionResponse>.self) else {
            return jsonProblem(renderer.message("formExpired"), status: .forbidden)
        }
        guard let resolver = await pendingResolver(request) else { return jsonProblem(renderer.message("sessionExpired"), status: .unauthorized) }
        do throws(IdentityToolkitError) {
            let assertion = try Wire.assertion(body.credential)
            do throws(AuthError) {
                let result = try await resolver.resolveSignIn(
                    with: WebAuthnMultiFactorGenerator.assertionForSignIn(withEnrollmentID: body.factor ?? "", response: assertion))
                return signedInJSON(result.user, request: request)
            } catch {
                return jsonProblem(explain(error))
            }
        } catch {
            return jsonProblem(error.detail)
        }
    }
}
