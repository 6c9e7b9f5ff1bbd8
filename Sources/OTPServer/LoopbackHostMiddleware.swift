public import Hummingbird
internal import OTPCore

/// Answers 403 in Identity Toolkit's error shape to a request whose `Host` header (HTTP/2's
/// `:authority`) names anything but this machine's loopback (`localhost` and its subdomains,
/// `127.0.0.0/8`, `::1`), or is missing.
///
/// For a server under ``IdentityToolkitConfiguration/isEmulator``, which accepts any API key and
/// `Bearer owner` as an administrator: bound to loopback it is out of other machines' reach, but a
/// web page in a browser on this machine could still reach it through a name of the page's own
/// that resolves to 127.0.0.1 (DNS rebinding), and such a request carries that name as its host.
public struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    /// A middleware for the routes added after it.
    public init() {}

    public func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        guard let host = request.head.authority, LoopbackHost.contains(authority: host) else {
            return IdentityToolkitError(
                status: .forbidden, "PERMISSION_DENIED",
                "the emulator answers requests addressed to localhost, 127.0.0.1 or [::1] only: connect to it by one of those names"
            ).response
        }
        return try await next(request, context)
    }
}
