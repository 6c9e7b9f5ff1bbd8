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
}
