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
    /// ``ThrottleStore/consumeQuota(key:window:limit:at:)``, for every store to apply inside its
    /// own atomic step. `bucket` is what the store holds under the key, if anything.
    ///
    /// A use that would overflow the bucket counts nothing and is refused until the first second
    /// at which it fits; a `limit` of zero or less refuses every use for a window.
    public static func consuming(
        _ bucket: QuotaBucket?, window: Int64, limit: Int, at time: Int64
    ) -> (bucket: QuotaBucket?, outcome: QuotaConsumption) {
        guard let rate = Rate(window: window, limit: limit) else { return (bucket, .exceeded(until: time &+ max(1, window))) }
        let now = time &* 1_000
        let drainedAt = max(bucket?.drainedAt ?? now, now) &+ rate.interval
        guard drainedAt &- now <= rate.capacity else { return (bucket, rate.refusal(drainedAt: drainedAt)) }
        return (QuotaBucket(drainedAt: drainedAt), rate.allowance(drainedAt: drainedAt, at: now))
    }

    /// How a quota of `limit` uses per `window` seconds fills a bucket, in milliseconds: the
    /// arithmetic of ``consuming(_:window:limit:at:)``, for a store that applies it in SQL.
    package struct Rate: Sendable {
        /// What one use adds: the window divided by the limit, rounded up.
        package let interval: Int64
        /// What the bucket holds: `limit` uses.
        package let capacity: Int64

        /// `nil` for a limit of zero or less, which refuses every use.
        package init?(window: Int64, limit: Int) {
            guard limit > 0 else { return nil }
            let windowMilliseconds = max(1, window).multipliedReportingOverflow(by: 1_000).partialValue
            interval = (windowMilliseconds + Int64(limit) - 1) / Int64(limit)
            capacity = interval &* Int64(limit)
        }

        /// The outcome of a use that left the bucket draining at `drainedAt`, at `now` (ms).
        package func allowance(drainedAt: Int64, at now: Int64) -> QuotaConsumption {
            .allowed(remaining: Int((capacity &- (drainedAt &- now)) / interval))
        }

        /// The outcome of a use refused because it would have left the bucket draining at
        /// `drainedAt`: the first second at which it fits.
        package func refusal(drainedAt: Int64) -> QuotaConsumption {
            let fits = drainedAt &- capacity
            return .exceeded(until: fits / 1_000 + (fits % 1_000 > 0 ? 1 : 0))
        }
    }
}

/// The outcome of ``ThrottleStore/consumeQuota(key:window:limit:at:)``.
public enum QuotaConsumption: Sendable, Hashable {
    /// The use was counted; `remaining` more fit at once.
    case allowed(remaining: Int)
    /// The bucket is full; nothing was counted. A use fits again from `until`.
    case exceeded(until: Int64)
}
