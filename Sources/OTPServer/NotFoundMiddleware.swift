public import Hummingbird

/// Answers a request that no route takes (an unknown path, or a known path with another method)
/// with 404 in Identity Toolkit's error shape (`{"error":{"code":404,"message":"NOT_FOUND : …",
/// "status":"NOT_FOUND"}}`) rather than Hummingbird's empty body, which clients cannot parse.
///
/// For a server of these routes alone, such as `otpkit-server`; an application that mounts the
/// routes beside its own keeps its own answers.
public struct NotFoundMiddleware<Context: RequestContext>: RouterMiddleware {
    /// A middleware for the router it is added to.
    public init() {}

    public func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            return IdentityToolkitError(
                status: .notFound, "NOT_FOUND",
                "this server has no endpoint \(request.method) \(request.uri.path): see the paths it serves in its documentation"
            ).response
        }
    }
}
