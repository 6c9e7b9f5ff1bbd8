import OTPCore
internal import Synchronization

/// The source of the current time for the multi-factor service, in Unix seconds.
///
/// Injecting it lets tests (and benchmarks) move time across deadlines, lockouts and TOTP steps.
public protocol AuthClock: Sendable {
    /// The current Unix time in whole seconds.
    func now() -> Int64
}

/// The system's real-time clock.
public struct SystemAuthClock: AuthClock {
    /// Creates the clock.
    public init() {}

    public func now() -> Int64 { TOTP.currentUnixTime() }
}

/// A clock that stands still until it is set or advanced, for tests and benchmarks.
public final class ManualAuthClock: AuthClock {
    private let time: Atomic<Int64>

    /// Creates a clock showing `time` (Unix seconds).
    public init(_ time: Int64) {
        self.time = Atomic(time)
    }

    public func now() -> Int64 { time.load(ordering: .relaxed) }

    /// Moves the clock by `seconds` (negative moves it back).
    public func advance(by seconds: Int64) {
        time.wrappingAdd(seconds, ordering: .relaxed)
    }

    /// Sets the clock to `time` (Unix seconds).
    public func set(_ time: Int64) {
        self.time.store(time, ordering: .relaxed)
    }
}
