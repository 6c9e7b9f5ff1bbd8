internal import Hummingbird
internal import OTPAuthentication

extension IdentityToolkitRoutes {
    /// The shortest and longest life of a session cookie, in seconds (Firebase's five minutes and
    /// two weeks).
    static let sessionCookieDurations: ClosedRange<Int64> = 300...1_209_600

    /// `projects/{project}:createSessionCookie` (firebase-admin's `create_session_cookie`, an
    /// administrator's call) and the keys cookies verify with: `GET …/v3/relyingparty/publicKeys`,
    /// certificates by key id as Google publishes them (what firebase-admin's
    /// `verify_session_cookie` fetches), and `GET /v1/sessionCookiePublicKeys`, the same keys as a
    /// JSON Web Key Set.
    func addSessionCookieRoutes<Context: RequestContext>(to router: Router<Context>) {
        let routes = self
        router.post(RouterPath(Self.identityToolkit + "/projects/{project}:createSessionCookie")) { request, context in
            await routes.respond {
                () async throws(IdentityToolkitError) -> any Encodable in
                try routes.checkAdminRequest(request, context: context)
                return try await routes.createSessionCookie(try await routes.readBody(request))
            }
        }
        router.get(RouterPath(Self.relyingParty + "/publicKeys")) { _, _ in routes.publishedKeys(routes.tokens.sessionCookieCertificatesJSON) }
        router.get(RouterPath(Self.identityToolkit + "/sessionCookiePublicKeys")) { _, _ in
            routes.publishedKeys(routes.tokens.sessionCookieKeySetJSON)
        }
    }

    /// A session cookie for the user of a live ID token, valid `validDuration` seconds (14 days
    /// when absent): `MISSING_ID_TOKEN`, `INVALID_DURATION`, or the token's own errors (a token of
    /// a revoked or ended session is `TOKEN_EXPIRED`).
    func createSessionCookie(_ body: JSONBody) async throws(IdentityToolkitError) -> Wire.SessionCookieResponse {
        let request = try body.decode(Wire.SessionCookieRequest.self)
        let duration = request.validDuration?.value ?? Self.sessionCookieDurations.upperBound
        guard Self.sessionCookieDurations.contains(duration) else {
            throw IdentityToolkitError(
                "INVALID_DURATION",
                "validDuration must be from \(Self.sessionCookieDurations.lowerBound) seconds (5 minutes) to \(Self.sessionCookieDurations.upperBound) (2 weeks)"
            )
        }
        let claims = try await tokenClaims(request.idToken)
        _ = try await sessionUser(claims)
        do {
            return Wire.SessionCookieResponse(sessionCookie: try await tokens.sessionCookie(from: claims, duration: duration))
        } catch {
            switch error {
            case .sessionCookieNeedsRS256: throw IdentityToolkitError("OPERATION_NOT_ALLOWED", error.description)
            default: throw IdentityToolkitError(status: .internalServerError, "INTERNAL_ERROR", error.description)
            }
        }
    }
}
