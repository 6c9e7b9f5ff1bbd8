extension PreparedKey {
    /// ``truncatedValue(counter:)`` of every counter, in their order: the values of many codes
    /// under one key (a range of steps to pre-compute, say), four at a time side by side where the
    /// CPU allows (SHA-1 and SHA-256 on the x86 SHA extensions), so faster per code than one
    /// call each.
    @inlinable
    public func truncatedValues(counters: some Sequence<UInt64>) -> [UInt32] {
        truncatedValues(counterArray: Array(counters))
    }

    /// ``truncatedValue(counter:)`` of `counter` under every key, in their order: one step's
    /// codes for many enrollments (a server checking a code against several users' keys, or
    /// preparing the current codes of all of them). Keys of one algorithm that follow each other
    /// are computed four at a time side by side where the CPU allows.
    @inlinable
    public static func truncatedValues(keys: some Sequence<PreparedKey>, counter: UInt64) -> [UInt32] {
        truncatedValues(keyArray: Array(keys), counter: counter)
    }

    @usableFromInline
    func truncatedValues(counterArray counters: [UInt64]) -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: counters.count) { values, initialized in
            counters.withUnsafeBufferPointer { counters in
                guard let first = counters.baseAddress, let output = values.baseAddress else { return }
                truncatedValues(counters: first, count: counters.count, into: output)
            }
            initialized = counters.count
        }
    }

    /// ``truncatedValue(counter:)`` of `count` counters, written to `values`: on the lane kernels
    /// when the key has a ``laneKernel``, otherwise two at a time on OpenSSL's transforms with their
    /// calls interleaved.
    @inline(__always)
    func truncatedValues(counters: UnsafePointer<UInt64>, count: Int, into values: UnsafeMutablePointer<UInt32>) {
        if let kernel = laneKernel {
            truncatedValues(lanes: counters, kernel: kernel, count: count, into: values)
            return
        }
        var index = 0
        while index + 2 <= count {
            (values[index], values[index + 1]) = truncatedValues(counters: counters[index], counters[index + 1])
            index += 2
        }
        if index < count { values[index] = truncatedValue(counter: counters[index]) }
    }

    @usableFromInline
    static func truncatedValues(keyArray keys: [PreparedKey], counter: UInt64) -> [UInt32] {
        var packed: [SIMD16<UInt32>] = []
        return [UInt32](unsafeUninitializedCapacity: keys.count) { values, initialized in
            var start = 0
            // Runs of one algorithm: a run the kernels take goes in one call, the rest one by one.
            while start < keys.count {
                let algorithm = keys[start].algorithm
                var end = start + 1
                while end < keys.count, keys[end].algorithm == algorithm { end += 1 }
                if let kernel = keys[start].laneKernel {
                    packed.removeAll(keepingCapacity: true)
                    for index in start..<end { packed.append(keys[index].laneKey(for: kernel)) }
                    withUnsafePointer(to: counter) { counter in
                        packed.withUnsafeBytes { packed in
                            laneValues(
                                kernel, keys: packed, keyStride: 1, counters: counter, counterStride: 0, into: values.baseAddress! + start,
                                count: end - start)
                        }
                    }
                } else {
                    for index in start..<end { values[index] = keys[index].truncatedValue(counter: counter) }
                }
                start = end
            }
            initialized = keys.count
        }
    }
}
