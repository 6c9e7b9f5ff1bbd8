internal import Foundation
internal import Hummingbird
internal import OTPAuthentication
internal import OTPQR
internal import OTPSealing

// The account page: second factors, recovery codes, sessions and recent activity, and the forms
// that change them.
extension WebPages {
    func addSecurityRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.get("/account") { request, _ in await pages.securityPage(request) }
        router.get("/account/totp") { request, _ in await pages.startTOTP(request) }
        router.post("/account/totp") { request, _ in await pages.finishTOTP(request) }
        router.post("/account/factors/remove") { request, _ in await pages.removeFactor(request) }
        router.post("/account/factors/rename") { request, _ in await pages.renameFactor(request) }
        router.post("/account/recovery-codes") { request, _ in await pages.recoveryCodes(request) }
        router.post("/account/sessions/end") { request, _ in await pages.endSession(request) }
        router.post("/account/sessions/end-others") { request, _ in await pages.endOtherSessions(request) }
    }

    /// The notices a change's redirect may ask the account page to show, by message key: only
    /// these, so a link cannot make the page say anything else.
    static let notices: Set<String> = [
        "factorAdded", "factorRemoved", "factorRenamed", "passkeyAdded", "passkeyRenamed", "passkeyRemoved", "sessionEnded", "otherSessionsEnded",
        "verificationSent", "phoneAdded", "securityKeyAdded",
    ]

    /// Runs `body` for a signed-in visitor, or sends the browser to sign in.
    func signedIn(_ request: Request, _ body: (User) async -> Response) async -> Response {
        guard let user = await visitor(request) else {
            return Self.redirect(Self.signInPath, cookies: [BrowserSession.cookie(.session, nil, for: request)])
        }
        return await body(user)
    }

    /// Runs `body` with the form of a signed-in visitor's POST, its CSRF token checked.
    func signedInForm(_ request: Request, _ body: (User, PageForm) async -> Response) async -> Response {
        await signedIn(request) { user in
            guard let form = await checkedForm(request, user: user) else { return formRefused(request, user: user) }
            return await body(user, form)
        }
    }

    /// Makes a signed-in visitor's `change` and sends the browser back to the account page with the
    /// notice `done` (one of ``notices``), or shows why the change was refused.
    func changed(_ request: Request, user: User, done: String, _ change: () async throws(AuthError) -> Void) async -> Response {
        do throws(AuthError) {
            try await change()
            return Self.redirect("/account?done=\(done)")
        } catch {
            return problem(request, user: user, explain(error))
        }
    }

    func securityPage(_ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok) async -> Response {
        await signedIn(request) { user in
            let done = request.uri.queryParameters["done"].map(String.init).flatMap { Self.notices.contains($0) ? $0 : nil }
            var values = common(
                renderer.message("securitySettings"), request: request, user: user, notice: done.map(renderer.message), error: error)
            try? await user.multiFactor.reload()
            let csrf = values["csrf"] ?? ""
            let factors = user.multiFactor.enrolledFactors.enumerated().map { index, factor -> [String: Any] in
                let (text, iso) = Self.time(factor.enrollmentTime)
                let kind = renderer.message("kinds", factor.factorID)
                return [
                    "id": factor.uid, "name": factor.displayName ?? kind, "kind": kind, "time": text, "isoTime": iso, "csrf": csrf, "index": index,
                ]
            }
            values["factors"] = factors
            values["hasFactors"] = !factors.isEmpty
            values["recoveryCodes"] = (try? await user.multiFactor.recoveryCodeCount()) ?? 0
            values["onAccount"] = true
            values["email"] = user.email ?? user.uid
            values["phoneEnabled"] = phoneEnabled
            values["unverified"] = !user.isEmailVerified && user.email != nil
            if configuration.offersPasskeys {
                let passkeys = ((try? await user.enrolledPasskeys()) ?? []).enumerated().map { index, passkey -> [String: Any] in
                    ["id": Base64URL.encode(passkey.credentialID), "name": passkey.name, "index": index, "csrf": csrf]
                }
                values["passkeysEnabled"] = true
                values["passkeys"] = passkeys
                values["hasPasskeys"] = !passkeys.isEmpty
                values["script"] = "pages.js"
            }
            values["sessions"] = ((try? await user.activeSessions()) ?? []).map { session -> [String: Any] in
                let (text, iso) = Self.time(session.authenticatedAt)
                return [
                    "id": session.id, "time": text, "isoTime": iso, "current": session.id == user.sessionID, "csrf": csrf,
                    "method": renderer.message(session.secondFactorEnrollmentID == nil ? "withoutSecondFactor" : "withSecondFactor"),
                ]
            }
            let events = (try? await service.administration.auditEvents(AuditQuery(userID: user.uid, limit: 20))) ?? []
            values.merge(eventValues(events, showUser: false, viewer: user.uid)) { _, new in new }
            return renderer.page("security", values, status: status)
        }
    }

    /// The events as the tables show them: when, what, by whom, from where, the details.
    func eventValues(_ events: [AuditEvent], showUser: Bool, viewer: String? = nil) -> [String: Any] {
        let rows = events.map { event -> [String: Any] in
            let (text, iso) = Self.time(event.time)
            let actor: String =
                switch event.actor {
                case .user(let id): id == viewer ? renderer.message("actors", "you") : id
                case .administrator(let name): name
                case .anonymous: renderer.message("actors", "anonymous")
                case .system: renderer.message("actors", "system")
                }
            let details = [event.factorKind.map { renderer.message("kinds", $0.rawValue) }, event.provider, event.reason].compactMap { $0 }
            return [
                "time": text, "isoTime": iso, "kind": renderer.message("events", event.kind.rawValue), "actor": actor,
                "clientAddress": event.clientAddress ?? "", "details": details.joined(separator: " · "), "userID": event.userID ?? "",
            ]
        }
        return ["events": rows, "hasEvents": !rows.isEmpty, "showUser": showUser]
    }

    /// A page that says what went wrong, with a way back to the account page.
    func problem(_ request: Request, user: User?, _ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        var values = common(renderer.message("errorTitle"), request: request, user: user, error: message)
        values["link"] = "/account"
        values["linkLabel"] = renderer.message("backToAccount")
        return renderer.page("message", values, status: status)
    }

    func startTOTP(_ request: Request) async -> Response {
        await signedIn(request) { user in
            do throws(AuthError) {
                let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
                let accountName = user.email ?? user.uid
                let uri = secret.generateQRCodeURL(withAccountName: accountName, issuer: routes.configuration.projectID)
                var values = common(renderer.message("enrollTOTPTitle"), request: request, user: user)
                values["qrSVG"] = Self.inlineSVG(uri, label: renderer.message("qrCodeOfKey"))
                values["key"] = secret.sharedSecretKey()
                values["accountName"] = accountName
                values["digits"] = secret.codeLength
                values["period"] = secret.codeIntervalSeconds
                values["algorithm"] = secret.hashingAlgorithm
                values["enrollment"] = secret.sessionInfo
                values["onAccount"] = true
                return renderer.page("enroll-totp", values)
            } catch {
                return problem(request, user: user, explain(error))
            }
        }
    }

    /// The QR code of `text` as SVG to put in a page (OTPQR draws it: no image request, no library
    /// of the browser's), its XML declaration left out and its role and name given.
    static func inlineSVG(_ text: String, label: String) -> String {
        guard let svg = try? QRCode(encoding: text).svgString(moduleSize: 6), let start = svg.range(of: "<svg ") else { return "" }
        let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        return "<svg role=\"img\" aria-label=\"\(escaped)\" " + svg[start.upperBound...]
    }

    func finishTOTP(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(
                withSessionInfo: form.text("enrollment") ?? "", oneTimePassword: form.text("code") ?? "")
            return await changed(request, user: user, done: "factorAdded") { () async throws(AuthError) in
                try await user.multiFactor.enroll(with: assertion, displayName: form.name())
            }
        }
    }

    func removeFactor(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            do throws(AuthError) {
                try await user.multiFactor.unenroll(withFactorUID: form.text("factor") ?? "")
                return Self.redirect("/account?done=factorRemoved")
            } catch {
                // Removing the factor this session signed in with ends the session.
                if error.code == .invalidUserToken {
                    return Self.redirect(Self.signInPath, cookies: [BrowserSession.cookie(.session, nil, for: request)])
                }
                return problem(request, user: user, explain(error))
            }
        }
    }

    func renameFactor(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            guard let id = form.text("factor"), let name = form.name() else {
                return problem(request, user: user, renderer.message("formExpired"))
            }
            return await changed(request, user: user, done: "factorRenamed") { () async throws(AuthError) in
                try await user.multiFactor.renameFactor(withUID: id, to: name)
            }
        }
    }

    func recoveryCodes(_ request: Request) async -> Response {
        await signedInForm(request) { user, _ in
            do throws(AuthError) {
                let codes = try await RecoveryCodeMultiFactorGenerator.generateCodes(with: try await user.multiFactor.session())
                var values = common(renderer.message("recoveryCodesTitle"), request: request, user: user)
                values["codes"] = codes
                values["onAccount"] = true
                return renderer.page("recovery-codes", values)
            } catch {
                return problem(request, user: user, explain(error))
            }
        }
    }

    func endSession(_ request: Request) async -> Response {
        await signedInForm(request) { user, form in
            await changed(request, user: user, done: "sessionEnded") { () async throws(AuthError) in
                try await user.endSession(id: form.text("session") ?? "")
            }
        }
    }

    func endOtherSessions(_ request: Request) async -> Response {
        await signedInForm(request) { user, _ in
            await changed(request, user: user, done: "otherSessionsEnded") { () async throws(AuthError) in try await user.endOtherSessions() }
        }
    }
}
