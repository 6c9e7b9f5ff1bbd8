/// An HMAC key schedule computed once: the hash states after absorbing `key ⊕ ipad` and
/// `key ⊕ opad` (RFC 2104).
///
/// Servers keep one per enrollment. Each code then costs exactly two calls of the hash's compression
/// function and no heap allocation. The value is a few dozen machine words, so copying it is cheap.
/// It is derived from the secret: treat it as key material.
public struct PreparedKey: Sendable {
    /// The HMAC hash function.
    public let algorithm: OTPAlgorithm
    var inner: ChainingValue
    var outer: ChainingValue

    /// Computes the HMAC key schedule of `secret` for `algorithm`.
    public init(secret: OTPSecret, algorithm: OTPAlgorithm = .sha1) {
        self.algorithm = algorithm
        (inner, outer) = secret.withUnsafeBytes { Self.schedule(key: $0, algorithm: algorithm) }
    }

    /// The 31-bit value of RFC 4226 dynamic truncation of HMAC(key, counter), before the modulo
    /// that reduces it to digits.
    @inline(__always)
    public func truncatedValue(counter: UInt64) -> UInt32 {
        switch algorithm {
        case .sha1: truncatedValue(SHA1Layout.self, counter: counter)
        case .sha256: truncatedValue(SHA256Layout.self, counter: counter)
        case .sha512: truncatedValue(SHA512Layout.self, counter: counter)
        }
    }

    /// ``truncatedValue(counter:)`` of two counters at once, faster than one after the other.
    @inline(__always)
    func truncatedValues(counters first: UInt64, _ second: UInt64) -> (UInt32, UInt32) {
        switch algorithm {
        case .sha1: truncatedValues(SHA1Layout.self, counters: first, second)
        case .sha256: truncatedValues(SHA256Layout.self, counters: first, second)
        case .sha512: truncatedValues(SHA512Layout.self, counters: first, second)
        }
    }
}

extension PreparedKey: CustomStringConvertible {
    /// A placeholder that never shows the key schedule.
    public var description: String { "PreparedKey(\(algorithm.rawValue), redacted)" }
}

/// The chaining value of a hash after whole blocks, laid out as the start of OpenSSL's context
/// (`SHA_CTX.h0...h4`, `SHA256_CTX.h`, `SHA512_CTX.h`) so that it is copied there with four vector
/// stores; unused words are zero.
struct ChainingValue: Sendable {
    var words = SIMD16<UInt32>()
}
