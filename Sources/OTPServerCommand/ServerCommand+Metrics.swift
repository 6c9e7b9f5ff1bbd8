internal import Hummingbird
internal import OTPCore
internal import OTPServer
internal import Metrics
internal import Prometheus

extension ServerCommand {
    /// Makes swift-metrics record into a Prometheus registry, once per process (swift-metrics
    /// allows one bootstrap), before any route or middleware makes a metric.
    static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// `GET /metrics` in Prometheus's text exposition format, and every request counted by route
    /// and status with its latency (Hummingbird's middleware: `hb_requests`,
    /// `http_server_request_duration`). With `token`, a scrape must carry it as
    /// `Authorization: Bearer TOKEN` (compared in constant time) or gets 401.
    static func addMetrics(_ registry: PrometheusCollectorRegistry, token: String?, to router: Router<ServerRequestContext>) {
        router.add(middleware: MetricsMiddleware())
        router.get("/metrics") { request, _ in
            if let token {
                let presented = request.headers[.authorization].flatMap(IdentityToolkitRoutes.bearerCredential) ?? ""
                guard ConstantTime.equal(Array(token.utf8), Array(presented.utf8)) else {
                    return Response(
                        status: .unauthorized, headers: [.contentType: "text/plain; charset=utf-8", .wwwAuthenticate: "Bearer"],
                        body: .init(byteBuffer: ByteBuffer(string: "metrics need Authorization: Bearer with the token of --metrics-token-file\n")))
                }
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
