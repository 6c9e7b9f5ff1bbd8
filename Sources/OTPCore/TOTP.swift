internal import Glibc

/// A time-based one-time password generator and verifier (RFC 6238).
public struct TOTP: Sendable {
    /// The counter-based generator that each time step is fed to.
    public let hotp: HOTP
    /// The length of a time step in seconds, at least 1.
    public let period: Int64
    /// The Unix time at which step 0 starts (`T0`).
    public let epoch: Int64

    /// Creates a generator from a prepared key.
    /// - Throws: ``OTPError/invalidDigits(_:)`` or ``OTPError/invalidPeriod(_:)``.
    public init(key: PreparedKey, digits: Int = 6, period: Int64 = 30, epoch: Int64 = 0) throws(OTPError) {
        guard period >= 1 else { throw .invalidPeriod(period) }
        self.hotp = try HOTP(key: key, digits: digits)
        self.period = period
        self.epoch = epoch
    }

    /// Creates a generator from a secret, preparing its key schedule.
    public init(
        secret: OTPSecret,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6,
        period: Int64 = 30,
        epoch: Int64 = 0
    ) throws(OTPError) {
        try self.init(key: PreparedKey(secret: secret, algorithm: algorithm), digits: digits, period: period, epoch: epoch)
    }

    /// The HMAC hash function.
    public var algorithm: OTPAlgorithm { hotp.key.algorithm }
    /// The number of digits of each code.
    public var digits: Int { hotp.digits }

    /// The time step that contains `time` (Unix seconds): ⌊(time − T0) / period⌋.
    /// - Throws: ``OTPError/timeBeforeEpoch(time:epoch:)`` when `time` is earlier than T0.
    public func step(at time: Int64) throws(OTPError) -> UInt64 {
        guard time >= epoch else { throw .timeBeforeEpoch(time: time, epoch: epoch) }
        // Subtracting in UInt64 keeps the full range when T0 is negative and time is near Int64.max.
        let elapsed = UInt64(bitPattern: time) &- UInt64(bitPattern: epoch)
        guard period == 30 else { return elapsed / UInt64(period) }
        // The usual period divides by multiplying with ⌈2^68 / 30⌉, as compilers do for a constant
        // divisor: a hardware division is on the path of every code. Written out because the
        // optimiser folds `elapsed / 30` under `period == 30` back into the division by `period`.
        return elapsed.multipliedFullWidth(by: 0x8888_8888_8888_8889).high >> 4
    }

    /// The Unix time at which `step` starts.
    public func startOfStep(_ step: UInt64) -> Int64 {
        epoch &+ Int64(truncatingIfNeeded: step &* UInt64(period))
    }

    /// The code at `time` (Unix seconds).
    public func code(at time: Int64) throws(OTPError) -> String {
        hotp.code(counter: try step(at: time))
    }

    /// The code of time step `step`.
    public func code(step: UInt64) -> String {
        hotp.code(counter: step)
    }

    /// The code now, by the system clock.
    public func currentCode() throws(OTPError) -> String {
        try code(at: Self.currentUnixTime())
    }

    /// Verifies `code` at `time` against every step of `window`, in constant time.
    ///
    /// With `lastAcceptedStep`, only a step strictly later than it is accepted (RFC 6238 section 5.2:
    /// a code is used once); record the returned ``TOTPMatch/step`` as the new last accepted step.
    ///
    /// - Returns: The matched step and its offset from the current step, or `nil` when nothing matched.
    /// - Throws: ``OTPError/invalidCodeLength(expected:actual:)``, ``OTPError/invalidCodeCharacter(offset:)``
    ///   or ``OTPError/timeBeforeEpoch(time:epoch:)``.
    @inlinable
    public func verify(
        _ code: some StringProtocol,
        at time: Int64,
        window: VerificationWindow = .oneStep,
        after lastAcceptedStep: UInt64? = nil
    ) throws(OTPError) -> TOTPMatch? {
        let value = try hotp.parse(code)
        let current = try step(at: time)
        guard let match = hotp.match(value, around: current, window: window, after: lastAcceptedStep) else { return nil }
        return TOTPMatch(step: match.counter, offset: match.offset)
    }

    /// The system clock's Unix time in whole seconds.
    public static func currentUnixTime() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }
}

/// The result of a successful ``TOTP/verify(_:at:window:after:)``.
public struct TOTPMatch: Sendable, Hashable {
    /// The time step whose code matched; store it as the last accepted step.
    public let step: UInt64
    /// The matched step minus the current step (negative: the code was from the past).
    public let offset: Int

    /// Creates a match.
    public init(step: UInt64, offset: Int) {
        self.step = step
        self.offset = offset
    }
}
