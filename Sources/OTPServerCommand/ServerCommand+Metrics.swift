internal import Hummingbird
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
    /// `http_server_request_duration`).
    static func addMetrics(_ registry: PrometheusCollectorRegistry, to router: Router<ServerRequestContext>) {
        router.add(middleware: MetricsMiddleware())
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
