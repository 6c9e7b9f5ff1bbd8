internal import CCryptoOpenSSL

/// Comparisons whose time does not depend on where the bytes differ (OpenSSL's `CRYPTO_memcmp`),
/// for anything derived from a secret or a code.
package enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. The lengths are compared first, which reveals only
    /// the lengths.
    package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in b.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, a.count) == 0 } }
    }

    /// Whether any of `candidates` equals `value`; every candidate is compared, so the time does
    /// not tell which matched.
    package static func contains(_ candidates: [[UInt8]], _ value: [UInt8]) -> Bool {
        var found = false
        for candidate in candidates where equal(candidate, value) { found = true }
        return found
    }
}
