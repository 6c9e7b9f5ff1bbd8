/// The uses of a quota, as a token bucket: what throttles text messages per number and per user,
/// and a host's request limits, so that a store shared by several processes enforces one limit.
///
/// A quota of `limit` uses per `window` seconds lets `limit` uses through at once, then one more
/// each `window / limit` seconds as the bucket drains. Unlike fixed windows it has no edge at
/// which twice the limit passes in a moment: over any span of `window` seconds at most twice the
/// limit passes, and over a span of `window / 2` at most one and a half times. Held as one moment
/// (the generic cell rate algorithm's theoretical arrival time), in milliseconds so that a window
/// that the limit does not divide drains at the rate it says.
public struct QuotaBucket: Sendable, Hashable {
    /// The Unix millisecond at which every use counted so far has drained; a bucket whose moment
    /// has passed holds nothing and is the same as none.
    public var drainedAt: Int64

    /// Creates a bucket.
    public init(drainedAt: Int64) {
        self.drainedAt = drainedAt
    }

    /// The bucket after one more use at `time`, with the outcome: the rule of
    /// ``EnrollmentStore/consumeQuota(key:window:limit:at:)``, for every store to apply inside its
    /// own atomic step. `bucket` is what the store holds under the key, if anything.
    ///
    /// A use that would overflow the bucket counts nothing and is refused until the first second
    /// at which it fits; a `limit` of zero or less refuses every use for a window.
    public static func consuming(
        _ bucket: QuotaBucket?, window: Int64, limit: Int, at time: Int64
    ) -> (bucket: QuotaBucket?, outcome: QuotaConsumption) {
        let windowMilliseconds = max(1, window).multipliedReportingOverflow(by: 1_000).partialValue
        guard limit > 0 else { return (bucket, .exceeded(until: time &+ max(1, window))) }
        let interval = (windowMilliseconds + Int64(limit) - 1) / Int64(limit)
        let capacity = interval &* Int64(limit)
        let now = time &* 1_000
        let drainedAt = max(bucket?.drainedAt ?? now, now) &+ interval
        guard drainedAt &- now <= capacity else {
            // The first millisecond at which the use fits, rounded up to the second.
            let fits = drainedAt &- capacity
            return (bucket, .exceeded(until: fits / 1_000 + (fits % 1_000 > 0 ? 1 : 0)))
        }
        return (QuotaBucket(drainedAt: drainedAt), .allowed(remaining: Int((capacity &- (drainedAt &- now)) / interval)))
    }
}

/// The outcome of ``EnrollmentStore/consumeQuota(key:window:limit:at:)``.
public enum QuotaConsumption: Sendable, Hashable {
    /// The use was counted; `remaining` more fit at once.
    case allowed(remaining: Int)
    /// The bucket is full; nothing was counted. A use fits again from `until`.
    case exceeded(until: Int64)
}
