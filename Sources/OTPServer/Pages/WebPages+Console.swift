internal import Foundation
internal import Hummingbird
internal import OTPAuthentication

// The admin console: users, a user's details and what an administrator does to an account
// (the admin REST paths' own operations: disable and enable, end sessions, reset second
// factors, delete), and the audit log. Each change is recorded with the administrator's address
// and the reason given.
extension WebPages {
    func addConsoleRoutes<Context: RequestContext>(to router: RouterGroup<Context>, _ pages: WebPages) {
        router.get("/admin") { request, _ in await pages.usersPage(request) }
        router.get("/admin/users/{uid}") { request, context in await pages.userPage(request, uid: context.parameters.get("uid") ?? "") }
        router.post("/admin/users/{uid}/{action}") { request, context in
            await pages.administer(request, uid: context.parameters.get("uid") ?? "", action: context.parameters.get("action") ?? "")
        }
        router.get("/admin/audit") { request, _ in await pages.auditPage(request) }
        router.get("/admin/audit.jsonl") { request, _ in await pages.auditExport(request) }
    }

    /// Runs `body` for an administrator; a visitor who is not one gets 403, one not signed in the
    /// sign-in page.
    func administrator(_ request: Request, _ body: (User, String) async -> Response) async -> Response {
        guard let user = await visitor(request) else { return Self.redirect(Self.signInPath) }
        guard isAdministrator(user), let email = user.email else {
            var values = common(
                renderer.message("forbiddenTitle"), request: request, user: user, error: renderer.message("consoleNeedsAdministrator"))
            values["link"] = "/account"
            values["linkLabel"] = renderer.message("backToAccount")
            return renderer.page("message", values, status: .forbidden)
        }
        return await body(user, email)
    }

    static let consoleNotices: Set<String> = ["accountDisabled", "accountEnabled", "sessionsEnded", "factorsReset", "accountDeleted"]

    func usersPage(_ request: Request) async -> Response {
        await administrator(request) { user, _ in
            let administration = service.administration
            let query = request.uri.queryParameters["q"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            let done = request.uri.queryParameters["done"].map(String.init).flatMap { Self.consoleNotices.contains($0) ? $0 : nil }
            var values = common(renderer.message("consoleTitle"), request: request, user: user, notice: done.map(renderer.message))
            var accounts: [AccountDetails] = []
            if !query.isEmpty {
                // A search is an exact id, address or number, as the admin REST lookups take them.
                let found = [
                    try? await administration.accountDetails(id: query), try? await administration.accountDetails(email: query),
                    query.hasPrefix("+") ? try? await administration.accountDetails(phoneNumber: query) : nil,
                ]
                accounts = found.compactMap { $0 ?? nil }
                values["query"] = query
            } else if let page = try? await administration.accounts(after: request.uri.queryParameters["after"].map(String.init), limit: 25) {
                accounts = page.accounts
                values["next"] = page.nextAfter
            }
            var seen: Set<String> = []
            values["users"] = accounts.filter { seen.insert($0.account.id).inserted }.map { details -> [String: Any] in
                let account = details.account
                let (created, iso) = Self.time(account.createdAt)
                return [
                    "id": account.id, "email": account.email ?? "", "status": renderer.message(account.isDisabled ? "disabled" : "enabled"),
                    "created": created, "isoCreated": iso, "lastSignIn": account.lastSignInAt.map { Self.time($0).text } ?? "",
                ]
            }
            values["hasUsers"] = !accounts.isEmpty
            values["onConsole"] = true
            return renderer.page("console-users", values)
        }
    }

    func userPage(_ request: Request, uid: String) async -> Response {
        await administrator(request) { user, _ in
            let administration = service.administration
            guard let details = try? await administration.accountDetails(id: uid) else {
                var values = common(renderer.message("notFoundTitle"), request: request, user: user, error: renderer.message("noUsers"))
                values["link"] = "/admin"
                values["linkLabel"] = renderer.message("consoleTitle")
                return renderer.page("message", values, status: .notFound)
            }
            let done = request.uri.queryParameters["done"].map(String.init).flatMap { Self.consoleNotices.contains($0) ? $0 : nil }
            var values = common(details.account.email ?? uid, request: request, user: user, notice: done.map(renderer.message))
            let account = details.account
            let (created, iso) = Self.time(account.createdAt)
            values["id"] = account.id
            values["email"] = account.email ?? ""
            values["verified"] = account.isEmailVerified
            values["status"] = renderer.message(account.isDisabled ? "disabled" : "enabled")
            values["created"] = created
            values["isoCreated"] = iso
            values["providers"] = details.providerData.map(\.providerID).joined(separator: ", ")
            values["toggleAction"] = account.isDisabled ? "enable" : "disable"
            values["toggleLabel"] = renderer.message(account.isDisabled ? "enable" : "disable")
            let factors = ((try? await administration.enrolledFactors(accountID: uid)) ?? []).map { factor -> [String: Any] in
                let (text, iso) = Self.time(factor.enrollmentTime)
                let kind = renderer.message("kinds", factor.factorID)
                return ["name": factor.displayName ?? kind, "kind": kind, "time": text, "isoTime": iso]
            }
            values["factors"] = factors
            values["hasFactors"] = !factors.isEmpty
            values["recoveryCodes"] = (try? await administration.recoveryCodeCount(accountID: uid)) ?? 0
            values["sessions"] = ((try? await administration.sessions(accountID: uid)) ?? []).map { session -> [String: Any] in
                let (text, iso) = Self.time(session.authenticatedAt)
                return [
                    "time": text, "isoTime": iso,
                    "method": renderer.message(session.secondFactorEnrollmentID == nil ? "withoutSecondFactor" : "withSecondFactor"),
                ]
            }
            let events = (try? await administration.auditEvents(AuditQuery(userID: uid, limit: 20))) ?? []
            values.merge(eventValues(events, showUser: false)) { _, new in new }
            values["onConsole"] = true
            return renderer.page("console-user", values)
        }
    }

    /// One of the console's changes to account `uid`, recorded with the administrator as the
    /// actor and the reason given.
    func administer(_ request: Request, uid: String, action: String) async -> Response {
        await administrator(request) { user, email in
            guard let form = await checkedForm(request, user: user) else { return formRefused(request, user: user) }
            let administration = service.administration
            // AuditEvent cuts the reason to its maximum length, as it cuts the header's.
            let reason = form.text("reason")
            var context = AuditContext.active
            context.actor = .administrator(email)
            context.reason = reason
            let back = "/admin/users/\(uid.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? uid)"
            return await AuditContext.with(context) { () async -> Response in
                do throws(AuthError) {
                    switch action {
                    case "disable", "enable":
                        _ = try await administration.updateAccount(id: uid, isDisabled: action == "disable")
                        return Self.redirect(back + "?done=" + (action == "disable" ? "accountDisabled" : "accountEnabled"))
                    case "end-sessions":
                        _ = try await administration.updateAccount(id: uid, tokensValidAfter: service.clock.now())
                        return Self.redirect(back + "?done=sessionsEnded")
                    case "reset-factors":
                        guard reason != nil else { return problem(request, user: user, renderer.message("reasonMissing")) }
                        try await administration.resetSecondFactors(accountID: uid)
                        return Self.redirect(back + "?done=factorsReset")
                    case "delete":
                        guard form["confirm"] == "yes" else { return problem(request, user: user, renderer.message("confirmMissing")) }
                        _ = try await administration.deleteAccount(id: uid)
                        return Self.redirect("/admin?done=accountDeleted")
                    default:
                        return problem(request, user: user, renderer.message("notFoundTitle"), status: .notFound)
                    }
                } catch {
                    return problem(request, user: user, explain(error))
                }
            }
        }
    }

    /// The audit log filtered by the page's query (`user`, `kind`) from `before` (a sequence number).
    func consoleAuditQuery(_ request: Request) -> AuditQuery {
        let parameters = request.uri.queryParameters
        var query = AuditQuery(limit: 50)
        if let user = parameters["user"].map(String.init), !user.isEmpty { query.userID = user }
        if let kind = parameters["kind"].map(String.init).flatMap(AuditEventKind.init(rawValue:)) { query.kinds = [kind] }
        query.beforeSequence = parameters["before"].flatMap { Int64($0) }
        return query
    }

    func auditPage(_ request: Request) async -> Response {
        await administrator(request) { user, _ in
            let query = consoleAuditQuery(request)
            var values = common(renderer.message("auditTitle"), request: request, user: user)
            let events = (try? await service.administration.auditEvents(query)) ?? []
            values.merge(eventValues(events, showUser: true)) { _, new in new }
            let selected = query.kinds.first?.rawValue
            values["kinds"] = AuditEventKind.allCases.map { ["value": $0.rawValue, "selected": $0.rawValue == selected] }
            values["user"] = query.userID ?? ""
            var filters = URLComponents()
            filters.queryItems = [query.userID.map { URLQueryItem(name: "user", value: $0) }, selected.map { URLQueryItem(name: "kind", value: $0) }]
                .compactMap { $0 }
            values["exportQuery"] = filters.percentEncodedQuery ?? ""
            if events.count == query.limit, let last = events.last {
                filters.queryItems = (filters.queryItems ?? []) + [URLQueryItem(name: "before", value: String(last.sequence))]
                values["next"] = filters.percentEncodedQuery
            }
            values["onAudit"] = true
            return renderer.page("console-audit", values)
        }
    }

    func auditExport(_ request: Request) async -> Response {
        await administrator(request) { _, _ in
            var query = consoleAuditQuery(request)
            query.beforeSequence = nil
            query.oldestFirst = true
            query.limit = AuditQuery.maximumLimit
            do throws(AuthError) {
                let first = try await service.administration.auditEvents(query)
                var response = routes.exportedAuditEvents(first, query: query)
                response.headers[.contentDisposition] = "attachment; filename=\"otpkit-audit.jsonl\""
                return response
            } catch {
                return problem(request, user: nil, explain(error), status: .internalServerError)
            }
        }
    }
}
