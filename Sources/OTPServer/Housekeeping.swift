public import CoreMetrics
public import Logging
public import OTPAuthentication

/// The server's purge of what has run out in the store: expired sessions and pending enrollments,
/// spent pending sign-ins, phone verifications and known sign-in sources, drained quotas, ended
/// locks and forgotten failures (`MultiFactorService.purgeExpired()`), run by ``run(every:)``
/// until its task is cancelled.
///
/// Without it the store only grows: a session is deleted when it is next used after expiring,
/// and most are never used again. Each purge is counted in `otpkit_purges_total` by `outcome`
/// (`done`, `failed`), and the time of the last one done is `otpkit_purge_last_done_seconds`.
public struct Housekeeping: Sendable {
    let service: MultiFactorService
    let logger: Logger
    private let done: Counter
    private let failed: Counter
    private let lastDone: Gauge

    static let purgesLabel = "otpkit_purges_total"
    static let lastDoneLabel = "otpkit_purge_last_done_seconds"

    /// Housekeeping of `service`'s store, which reports the last purge's time by the service's
    /// clock.
    ///
    /// - Parameters:
    ///   - service: The service whose store is purged.
    ///   - logger: Receives a failed purge, without the store's detail.
    ///   - metricsFactory: Where purges are counted; `nil` for swift-metrics' global factory.
    public init(service: MultiFactorService, logger: Logger, metricsFactory: (any MetricsFactory)? = nil) {
        let factory = metricsFactory ?? MetricsSystem.factory
        self.service = service
        self.logger = logger
        done = Counter(label: Self.purgesLabel, dimensions: [("outcome", "done")], factory: factory)
        failed = Counter(label: Self.purgesLabel, dimensions: [("outcome", "failed")], factory: factory)
        lastDone = Gauge(label: Self.lastDoneLabel, factory: factory)
    }

    /// Purges once; a failure is logged and counted, never thrown: the next purge tries again.
    /// - Returns: Whether the purge was done.
    @discardableResult
    public func purgeOnce() async -> Bool {
        do {
            try await service.purgeExpired()
        } catch {
            failed.increment()
            logger.error("purging expired records failed", metadata: ["error": "\(error.message)"])
            return false
        }
        done.increment()
        lastDone.record(service.clock.now())
        return true
    }

    /// Purges at once and then every `interval`, until the calling task is cancelled.
    public func run(every interval: Duration) async {
        repeat {
            await purgeOnce()
        } while (try? await Task.sleep(for: interval)) != nil
    }
}
