/// Uses of a quota in one fixed window of time: what throttles text messages per number and per
/// user, so that a store shared by several processes enforces one limit.
///
/// Windows start at multiples of their length since the Unix epoch, so every process puts a
/// moment in the same window without agreeing on anything but the length.
public struct QuotaCounter: Sendable, Hashable {
    /// The first second of the window.
    public var windowStart: Int64
    /// The first second after the window.
    public var windowEnd: Int64
    /// Uses counted in the window.
    public var count: Int

    /// Creates a counter.
    public init(windowStart: Int64, windowEnd: Int64, count: Int) {
        self.windowStart = windowStart
        self.windowEnd = windowEnd
        self.count = count
    }

    /// The counter after one more use at `time`, with the outcome: the rule of
    /// ``EnrollmentStore/consumeQuota(key:window:limit:at:)``, for every store to apply inside its
    /// own atomic step. `counter` is what the store holds under the key, if anything.
    ///
    /// A use in a later window than the stored one starts a new count. A use beyond `limit`
    /// counts nothing and is refused until the window ends.
    public static func consuming(
        _ counter: QuotaCounter?, window: Int64, limit: Int, at time: Int64
    ) -> (counter: QuotaCounter, outcome: QuotaConsumption) {
        let length = max(1, window)
        let start = time - ((time % length) + length) % length
        var current =
            counter.flatMap { $0.windowStart == start ? $0 : nil }
            ?? QuotaCounter(windowStart: start, windowEnd: start &+ length, count: 0)
        guard current.count < limit else {
            return (current, .exceeded(until: current.windowEnd))
        }
        current.count += 1
        return (current, .allowed(remaining: limit - current.count))
    }
}

/// The outcome of ``EnrollmentStore/consumeQuota(key:window:limit:at:)``.
public enum QuotaConsumption: Sendable, Hashable {
    /// The use was counted; `remaining` more fit in the window.
    case allowed(remaining: Int)
    /// The window is full; nothing was counted. Uses are allowed again from `until`.
    case exceeded(until: Int64)
}
