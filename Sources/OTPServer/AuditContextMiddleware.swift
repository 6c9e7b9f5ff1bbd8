internal import Hummingbird
internal import OTPAuthentication

/// Sets the ``AuditContext`` of each request: the client's address (as the throttles see it,
/// through the trusted proxies), its `User-Agent`, and, for a request that carries the
/// administrator's credential, the administrator as the one who acts and the reason its
/// `X-OTPKit-Audit-Reason` header gives. The client's address is worked out here once per
/// request; the throttles of the routes and the pages read it back from the context. The service's audit
/// events then say who changed what from where, whichever route made the change.
struct AuditContextMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header an administrator's request states its reason in, as the audit events record it.
    static var reasonHeader: String { "x-otpkit-audit-reason" }

    let routes: IdentityToolkitRoutes

    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let peer = (context as? any RemoteAddressRequestContext)?.remoteAddress
        let administrator = routes.administrator(of: request)
        // An administrator may say why, for the events of the change; nobody else records a reason.
        let reason = administrator == nil ? nil : request.headers.first { $0.name.canonicalName == Self.reasonHeader }?.value
        let audit = AuditContext(
            actor: administrator, clientAddress: routes.clientAddress(request, peer: peer), userAgent: request.headers[.userAgent], reason: reason)
        return try await AuditContext.with(audit) { try await next(request, context) }
    }
}

extension IdentityToolkitRoutes {
    /// The administrator a request's credential names (the operator's token is `admin`, the
    /// emulator's `Bearer owner` is `owner`), or `nil` for a request without that credential.
    func administrator(of request: Request) -> AuditActor? {
        guard request.headers[.authorization] != nil, (try? checkAdmin(request)) != nil else { return nil }
        let presented = request.headers[.authorization].flatMap(Self.bearerCredential)
        return .administrator(configuration.isEmulator && presented?.lowercased() == "owner" ? "owner" : "admin")
    }
}
