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
    @inlinable
    public func verify(_ code: some StringProtocol, counter: UInt64, lookAhead: Int = 0) throws(OTPError) -> UInt64? {
        let window = try VerificationWindow(behind: 0, ahead: lookAhead)
        let value = try parse(code)
        return match(value, around: counter, window: window, after: nil)?.counter
    }

    /// The numeric value of a code after checking that it has exactly ``digits`` ASCII digits.
    ///
    /// Inlinable so that callers specialise it for their string type: a native string's bytes are
    /// then one direct call away, where generic code pays witness calls and metadata lookups that
    /// cost more than the rest of a verification's overhead together.
    @inlinable
    func parse(_ code: some StringProtocol) throws(OTPError) -> UInt64 {
        let parsed =
            code.utf8.withContiguousStorageIfAvailable { Self.parseDigits($0) }
            ?? Array(code.utf8).withUnsafeBufferPointer { Self.parseDigits($0) }
        guard parsed.count == digits, parsed.invalidAt < 0 else {
            throw invalidCode(String(code), count: parsed.count, invalidAt: parsed.invalidAt)
        }
        return parsed.value
    }

    /// Why `code` is not a code: a character that is not an ASCII digit (at its offset in Unicode
    /// scalars), or the wrong length.
    @usableFromInline
    func invalidCode(_ code: String, count: Int, invalidAt: Int) -> OTPError {
        guard invalidAt >= 0 else { return .invalidCodeLength(expected: digits, actual: count) }
        let utf8Index = code.utf8.index(code.utf8.startIndex, offsetBy: invalidAt)
        let scalars = code.unicodeScalars
        return .invalidCodeCharacter(offset: scalars.distance(from: scalars.startIndex, to: utf8Index))
    }

    /// The value of up to ten leading digits, the number of bytes, and the UTF-8 offset of the first
    /// byte that is not an ASCII digit (or -1).
    @inlinable
    static func parseDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> (value: UInt64, count: Int, invalidAt: Int) {
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
    /// The window's counters follow each other, so they are computed in counter order, up to
    /// sixteen per call (``PreparedKey/truncatedValues(counters:count:into:)``: four side by side on
    /// the lane kernels, else two at a time), from buffers on the stack, and the preference order
    /// becomes a rank compared without branches. Which counters exist depends only on public data
    /// (the window, the current step), so branching on that is safe.
    @usableFromInline
    func match(_ value: UInt64, around center: UInt64, window: VerificationWindow, after lastAccepted: UInt64?) -> (counter: UInt64, offset: Int)? {
        // Counters before 0 or past the largest do not exist.
        let first = center - min(center, UInt64(window.behind))
        let last = center + min(.max - center, UInt64(window.ahead))
        var selection = Selection(value: value, center: center, lastAccepted: lastAccepted)
        // Fixed-size buffers in the frame: the closures of temporary allocations were not inlined,
        // and their calls cost more than the selection itself.
        var counters = InlineArray<16, UInt64>(repeating: 0)
        var values = InlineArray<16, UInt32>(repeating: 0)
        var start = first
        while true {
            let count = Int(min(last - start, UInt64(counters.count - 1))) + 1
            for index in 0..<count { counters[index] = start + UInt64(index) }
            var output = values.mutableSpan
            counters.span.withUnsafeBufferPointer { counters in
                output.withUnsafeMutableBufferPointer { values in
                    key.truncatedValues(counters: counters.baseAddress!, count: count, into: values.baseAddress!)
                }
            }
            values.span.withUnsafeBufferPointer { values in
                selection.consider(UnsafeBufferPointer(rebasing: values[..<count]), from: start, digits: digits)
            }
            guard last - start >= UInt64(counters.count) else { break }
            start += UInt64(counters.count)
        }
        return selection.chosen
    }

    /// The constant-time choice of the earliest matching, eligible candidate in preference order.
    private struct Selection {
        let value: UInt64
        let center: UInt64
        /// Counters from here on may be accepted (public: the stored last accepted counter + 1).
        let eligibleFrom: UInt64
        let anyEligible: Bool
        /// The best rank of a match so far; ``none`` until one matches.
        var rank = Self.none
        /// Above every rank a window has: a miss ranks here or after.
        static let none: UInt64 = 1 << 62

        init(value: UInt64, center: UInt64, lastAccepted: UInt64?) {
            self.value = value
            self.center = center
            eligibleFrom = lastAccepted.map { $0 &+ 1 } ?? 0
            anyEligible = lastAccepted != .max
        }

        /// Considers the truncated values of the counters `first`, `first + 1`, ….
        @inline(__always)
        mutating func consider(_ values: UnsafeBufferPointer<UInt32>, from first: UInt64, digits: Int) {
            // One switch per call, not per candidate, so each reduction divides by a constant.
            switch digits {
            case 6: consider(values, from: first) { $0 % 1_000_000 }
            case 7: consider(values, from: first) { $0 % 10_000_000 }
            case 8: consider(values, from: first) { $0 % 100_000_000 }
            case 9: consider(values, from: first) { $0 % 1_000_000_000 }
            default: consider(values, from: first) { $0 }  // 10 digits: every 31-bit value is below 10^10.
            }
        }

        @inline(__always)
        private mutating func consider(_ values: UnsafeBufferPointer<UInt32>, from first: UInt64, reduce: (UInt64) -> UInt64) {
            for (index, truncated) in values.enumerated() {
                // The counter, its offset and its rank are public; only comparisons involving the
                // code or the choice so far must not branch.
                let counter = first + UInt64(index)
                let offset = Int64(bitPattern: counter &- center)
                // Zigzag: offsets 0, -1, +1, -2, +2, … rank 0, 1, 2, 3, 4, ….
                let candidateRank = UInt64(bitPattern: (offset << 1) ^ (offset >> 63))
                let eligible: UInt64 = anyEligible && counter >= eligibleFrom ? 1 : 0
                let difference = reduce(UInt64(truncated)) ^ value
                let miss = ((difference | (0 &- difference)) >> 63) | (eligible ^ 1)
                let candidate = candidateRank | (miss << 62)
                // The smaller of the two without a branch (both are below 2^63, so the difference's
                // sign says which); each candidate's work but this is independent of the others.
                let smaller = 0 &- ((candidate &- rank) >> 63)
                rank ^= (candidate ^ rank) & smaller
            }
        }

        /// The chosen counter and its offset, or `nil` when no candidate matched.
        var chosen: (counter: UInt64, offset: Int)? {
            guard rank < Self.none else { return nil }
            let offset = Int64(bitPattern: rank >> 1) ^ (0 &- Int64(bitPattern: rank & 1))
            return (center &+ UInt64(bitPattern: offset), Int(offset))
        }
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
