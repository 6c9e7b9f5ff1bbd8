/// An HMAC-based one-time password generator (RFC 4226).
public struct HOTP: Sendable {
    /// The number of digits a code may have.
    public static let digitRange = 6...10

    /// The prepared HMAC key.
    public let key: PreparedKey
    /// The number of digits of each code, 6 to 10.
    public let digits: Int

    /// Creates a generator from a prepared key.
    /// - Throws: ``OTPError/invalidDigits(_:)`` when `digits` is outside `6...10`.
    public init(key: PreparedKey, digits: Int = 6) throws(OTPError) {
        guard Self.digitRange.contains(digits) else { throw .invalidDigits(digits) }
        self.key = key
        self.digits = digits
    }

    /// Creates a generator from a secret, preparing its key schedule.
    public init(secret: OTPSecret, algorithm: OTPAlgorithm = .sha1, digits: Int = 6) throws(OTPError) {
        try self.init(key: PreparedKey(secret: secret, algorithm: algorithm), digits: digits)
    }

    /// The code for `counter` as a number (leading zeros are not part of a number: see ``code(counter:)``).
    @inlinable
    public func value(counter: UInt64) -> UInt64 {
        Self.reduce(key.truncatedValue(counter: counter), digits: digits)
    }

    /// `truncated mod 10^digits`. A constant divisor per case compiles to a multiplication; a divisor
    /// loaded from a table is a hardware division, slower than the rest of a code's overhead.
    @usableFromInline @inline(__always)
    static func reduce(_ truncated: UInt32, digits: Int) -> UInt64 {
        let value = UInt64(truncated)
        switch digits {
        case 6: return value % 1_000_000
        case 7: return value % 10_000_000
        case 8: return value % 100_000_000
        case 9: return value % 1_000_000_000
        default: return value  // 10 digits: every 31-bit value is below 10^10.
        }
    }

    /// The code for `counter`, zero-padded to ``digits`` characters.
    @inline(__always)
    public func code(counter: UInt64) -> String {
        Self.format(value(counter: counter), digits: digits)
    }

    /// Checks `code` against counters `counter ... counter + lookAhead` (RFC 4226 section 7.4
    /// resynchronisation) in constant time.
    ///
    /// - Returns: The counter that matched (store `counter + 1` as the next expected counter), or
    ///   `nil` when none did.
    /// - Throws: ``OTPError/invalidCodeLength(expected:actual:)`` or
    ///   ``OTPError/invalidCodeCharacter(offset:)`` when `code` is not ``digits`` ASCII digits, and
    ///   ``OTPError/invalidWindow(behind:ahead:)`` when `lookAhead` is negative or too large.
    public func verify(_ code: some StringProtocol, counter: UInt64, lookAhead: Int = 0) throws(OTPError) -> UInt64? {
        let window = try VerificationWindow(behind: 0, ahead: lookAhead)
        let value = try parse(code)
        return match(value, around: counter, window: window, after: nil)?.counter
    }

    /// The numeric value of a code after checking that it has exactly ``digits`` ASCII digits.
    func parse(_ code: some StringProtocol) throws(OTPError) -> UInt64 {
        // One witness call reaches the bytes of a native string; walking a generic UTF8View costs a
        // witness call per byte, more than the rest of a verification's overhead together.
        let parsed =
            code.utf8.withContiguousStorageIfAvailable { Self.parseDigits($0) }
            ?? Array(code.utf8).withUnsafeBufferPointer { Self.parseDigits($0) }
        if parsed.count == digits && parsed.invalidAt < 0 { return parsed.value }
        if parsed.invalidAt >= 0 {
            let text = String(code)
            let utf8Index = text.utf8.index(text.utf8.startIndex, offsetBy: parsed.invalidAt)
            let scalars = text.unicodeScalars
            throw .invalidCodeCharacter(offset: scalars.distance(from: scalars.startIndex, to: utf8Index))
        }
        throw .invalidCodeLength(expected: digits, actual: parsed.count)
    }

    /// The value of up to ten leading digits, the number of bytes, and the UTF-8 offset of the first
    /// byte that is not an ASCII digit (or -1).
    private static func parseDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> (value: UInt64, count: Int, invalidAt: Int) {
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return (value, bytes.count, index) }
            if index < digitRange.upperBound {
                value = value &* 10 &+ UInt64(digit)
            }
        }
        return (value, bytes.count, -1)
    }

    /// Computes every candidate in the window and picks, without data-dependent branches, the first
    /// match in the order 0, -1, +1, -2, +2, … among counters later than `lastAccepted`.
    ///
    /// Candidates are computed up to sixteen per call of the lane kernels, four side by side, when
    /// the key ``PreparedKey/computesInLanes``, otherwise two at a time
    /// (``PreparedKey/truncatedValues(counters:_:)``); either way their hash calls overlap. Which
    /// candidates exist depends only on public data (the window, the current step), so branching on
    /// that is safe.
    func match(_ value: UInt64, around center: UInt64, window: VerificationWindow, after lastAccepted: UInt64?) -> (counter: UInt64, offset: Int)? {
        var selection = Selection(value: value, lastAccepted: lastAccepted)
        if key.computesInLanes {
            considerInLanes(around: center, window: window, into: &selection)
        } else {
            considerInPairs(around: center, window: window, into: &selection)
        }
        guard selection.found == 1 else { return nil }
        let offset = Int(Int64(bitPattern: selection.chosenOffset))
        return (Self.counter(center, offsetBy: offset)!, offset)
    }

    /// Sixteen candidates per call of the lane kernels (four groups of four side by side), from
    /// buffers on the stack: SIMD values indexed at run time were copied through memory whole, and
    /// state captured by a closure paid for dynamic exclusivity checks.
    @inline(__always)
    private func considerInLanes(around center: UInt64, window: VerificationWindow, into selection: inout Selection) {
        let capacity = 16
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { counters in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { offsets in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { values in
                    var candidates = CandidateOrder(center: center, window: window)
                    while true {
                        var count = 0
                        while count < capacity, let candidate = candidates.next() {
                            counters[count] = candidate.counter
                            offsets[count] = candidate.offset
                            count += 1
                        }
                        guard count > 0 else { return }
                        key.truncatedValues(lanes: counters.baseAddress!, count: count, into: values.baseAddress!)
                        for index in 0..<count {
                            selection.consider(Self.reduce(values[index], digits: digits), counter: counters[index], offset: offsets[index])
                        }
                    }
                }
            }
        }
    }

    /// Two candidates at a time on OpenSSL's transforms (``PreparedKey/truncatedValues(counters:_:)``),
    /// their calls interleaved.
    @inline(__always)
    private func considerInPairs(around center: UInt64, window: VerificationWindow, into selection: inout Selection) {
        var candidates = CandidateOrder(center: center, window: window)
        while let first = candidates.next() {
            guard let second = candidates.next() else {
                selection.consider(value(counter: first.counter), counter: first.counter, offset: first.offset)
                return
            }
            let (firstValue, secondValue) = key.truncatedValues(counters: first.counter, second.counter)
            selection.consider(Self.reduce(firstValue, digits: digits), counter: first.counter, offset: first.offset)
            selection.consider(Self.reduce(secondValue, digits: digits), counter: second.counter, offset: second.offset)
        }
    }

    /// The window's counters in preference order, with their offsets: k = 0, 1, 2, 3, 4, … gives
    /// 0, -1, +1, -2, +2, …; counters before 0 or past the largest do not exist.
    private struct CandidateOrder {
        let center: UInt64
        let window: VerificationWindow
        private var k = 0

        init(center: UInt64, window: VerificationWindow) {
            self.center = center
            self.window = window
        }

        @inline(__always)
        mutating func next() -> (counter: UInt64, offset: Int)? {
            let lastK = 2 * max(window.behind, window.ahead)
            while k <= lastK {
                let signed = k & 1 == 1 ? -(k + 1) / 2 : k / 2
                k += 1
                guard signed >= -window.behind, signed <= window.ahead,
                    let candidate = HOTP.counter(center, offsetBy: signed)
                else { continue }
                return (candidate, signed)
            }
            return nil
        }
    }

    /// The constant-time choice of the first matching, eligible candidate.
    private struct Selection {
        let value: UInt64
        let lastAccepted: UInt64?
        var found: UInt64 = 0
        var chosenOffset: UInt64 = 0

        init(value: UInt64, lastAccepted: UInt64?) {
            self.value = value
            self.lastAccepted = lastAccepted
        }

        @inline(__always)
        mutating func consider(_ candidateValue: UInt64, counter: UInt64, offset: Int) {
            // The candidate counter is public; only the comparison with the code must not branch.
            let eligible: UInt64 = lastAccepted.map { counter > $0 ? 1 : 0 } ?? 1
            let difference = candidateValue ^ value
            let equal = ((difference | (0 &- difference)) >> 63) ^ 1
            let take = equal & eligible & (found ^ 1)
            chosenOffset |= UInt64(bitPattern: Int64(offset)) & (0 &- take)
            found |= take
        }
    }

    private static func counter(_ center: UInt64, offsetBy offset: Int) -> UInt64? {
        if offset >= 0 {
            let (sum, overflow) = center.addingReportingOverflow(UInt64(offset))
            return overflow ? nil : sum
        }
        let magnitude = UInt64(-offset)
        return center >= magnitude ? center - magnitude : nil
    }

    static func format(_ value: UInt64, digits: Int) -> String {
        String(unsafeUninitializedCapacity: digits) { buffer in
            // Two digits per step from a constant table: half the divisions of a digit loop, and a
            // StaticString needs neither lazy initialisation nor reference counting.
            let pairs = digitPairs.utf8Start
            var remaining = value
            var index = digits
            while index >= 2 {
                let pair = Int(remaining % 100) &* 2
                remaining /= 100
                index -= 2
                buffer[index] = pairs[pair]
                buffer[index + 1] = pairs[pair + 1]
            }
            if index == 1 {
                buffer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
            }
            return digits
        }
    }

    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
}
