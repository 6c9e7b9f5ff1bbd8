/// Counters, locks and quotas: consecutive failures under a key and the lock they cause, and
/// the token buckets of quotas.
///
/// A requirement of ``AuthStore``. Each count is one atomic step, so concurrent failures
/// and uses are all counted, and the rules every store applies live once, on
/// ``FailureCounter`` and ``QuotaBucket``.
public protocol ThrottleStore: Sendable {
    /// The failure counter under `key` (an enrollment id or a pending enrollment id); a zero counter
    /// when none was recorded.
    func failureCounter(key: String) async throws -> FailureCounter

    /// Atomically counts one failure under `key` at `time` and returns the new counter.
    ///
    /// A lock that ended at or before `time` is cleared first, together with the failures that led
    /// to it. When the count reaches `limit`, the counter is locked until `time + lockout` and the
    /// count starts again from zero.
    func recordFailure(key: String, at time: Int64, limit: Int, lockout: Int64) async throws -> FailureCounter

    /// Deletes the counter under `key` (a success ends a run of consecutive failures).
    func resetFailures(key: String) async throws

    /// Counts one use of the quota under `key` (such as text messages to one number) of `limit`
    /// uses per `window` seconds at `time`, in one atomic step, as
    /// ``QuotaBucket/consuming(_:window:limit:at:)`` says: allowed while the bucket has room,
    /// refused (counting nothing) beyond. Of concurrent calls, exactly as many as fit are allowed.
    func consumeQuota(key: String, window: Int64, limit: Int, at time: Int64) async throws -> QuotaConsumption
}
