extension PreparedKey {
    /// ``truncatedValue(counter:)`` of every counter, in their order: the values of many codes
    /// under one key (a range of steps to pre-compute, say), four at a time side by side where the
    /// CPU allows (SHA-1 and SHA-256 on the x86 SHA extensions), so faster per code than one
    /// call each.
    public func truncatedValues(counters: some Sequence<UInt64>) -> [UInt32] {
        var values: [UInt32] = []
        values.reserveCapacity(counters.underestimatedCount)
        var pending = SIMD4<UInt64>()
        var count = 0
        for counter in counters {
            pending[count] = counter
            count += 1
            if count == 4 {
                if computesInLanes {
                    let four = truncatedValues(lanes: pending)
                    for lane in 0..<4 { values.append(four[lane]) }
                } else {
                    let (a, b) = truncatedValues(counters: pending[0], pending[1])
                    let (c, d) = truncatedValues(counters: pending[2], pending[3])
                    values.append(a)
                    values.append(b)
                    values.append(c)
                    values.append(d)
                }
                count = 0
            }
        }
        for index in 0..<count {
            values.append(truncatedValue(counter: pending[index]))
        }
        return values
    }

    /// ``truncatedValue(counter:)`` of `counter` under every key, in their order: one step's
    /// codes for many enrollments (a server checking a code against several users' keys, or
    /// preparing the current codes of all of them). Keys of one algorithm that follow each other
    /// are computed four at a time side by side where the CPU allows.
    public static func truncatedValues(keys: some Sequence<PreparedKey>, counter: UInt64) -> [UInt32] {
        var values: [UInt32] = []
        values.reserveCapacity(keys.underestimatedCount)
        var pending: [PreparedKey] = []
        pending.reserveCapacity(4)
        func flushOneByOne() {
            for key in pending { values.append(key.truncatedValue(counter: counter)) }
            pending.removeAll(keepingCapacity: true)
        }
        for key in keys {
            if let first = pending.first, first.algorithm != key.algorithm {
                flushOneByOne()
            }
            pending.append(key)
            if pending.count == 4 {
                if key.computesInLanes {
                    let four = truncatedValues(lanes: (pending[0], pending[1], pending[2], pending[3]), counters: SIMD4(repeating: counter))
                    for lane in 0..<4 { values.append(four[lane]) }
                    pending.removeAll(keepingCapacity: true)
                } else {
                    flushOneByOne()
                }
            }
        }
        flushOneByOne()
        return values
    }
}
