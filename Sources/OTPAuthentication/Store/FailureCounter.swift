/// Consecutive failed verifications under one key, and the lock they caused.
public struct FailureCounter: Sendable, Hashable {
    /// Failures since the last success or the last lock.
    public var consecutiveFailures: Int
    /// The Unix second at which the lock ends, when locked.
    public var lockedUntil: Int64?

    /// A counter with no failures and no lock.
    public static let zero = FailureCounter(consecutiveFailures: 0, lockedUntil: nil)

    /// Creates a counter.
    public init(consecutiveFailures: Int, lockedUntil: Int64?) {
        self.consecutiveFailures = consecutiveFailures
        self.lockedUntil = lockedUntil
    }

    /// Whether the lock is still in force at `time`.
    public func isLocked(at time: Int64) -> Bool {
        guard let lockedUntil else { return false }
        return time < lockedUntil
    }

    /// When the lock in force at `time` ends, or `nil` when there is none.
    public func lockEnd(at time: Int64) -> Int64? {
        isLocked(at: time) ? lockedUntil : nil
    }

    /// The counter after one more failure at `time`: the rule of
    /// ``ThrottleStore/recordFailure(key:at:limit:lockout:)``, for every store to apply inside
    /// its own atomic step.
    ///
    /// A lock that ended at or before `time` is cleared first, with the failures that led to it.
    /// Reaching `limit` locks until `time + lockout` and starts the count again from zero.
    public func recordingFailure(at time: Int64, limit: Int, lockout: Int64) -> FailureCounter {
        var counter = self
        if let lockedUntil, lockedUntil <= time {
            counter = .zero
        }
        counter.consecutiveFailures += 1
        if counter.consecutiveFailures >= limit {
            counter = FailureCounter(consecutiveFailures: 0, lockedUntil: time &+ lockout)
        }
        return counter
    }
}
