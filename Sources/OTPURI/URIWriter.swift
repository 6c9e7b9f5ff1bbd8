import OTPCore

/// Writes a URI straight into a String's storage.
///
/// Formatting builds one string per call on hot server paths (enrollment, QR pages), so the
/// formatter sizes the storage once from an upper bound and writes bytes through a pointer
/// instead of appending to growing arrays or strings.
struct URIWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// Creates a string of at most `capacity` UTF-8 bytes written by `body`.
    static func makeString(capacity: Int, _ body: (inout URIWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = URIWriter(buffer: buffer)
            body(&writer)
            return writer.count
        }
    }

    /// The most bytes ``write(_:escapingFor:)`` writes for `text`: every byte escaped.
    static func escapedBound(_ text: String) -> Int {
        3 * text.utf8.count
    }

    /// The most bytes ``writeDecimal(_:)`` writes.
    static let decimalBound = 20

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func write(_ literal: StaticString) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        write(bytes)
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count + bytes.count <= buffer.count, "URIWriter capacity exceeded")
        _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + bytes.count)]).initialize(fromContentsOf: bytes)
        count += bytes.count
    }

    /// Writes the secret in Base32 without padding (never needs escaping).
    mutating func writeBase32(_ secret: OTPSecret) {
        let length = Base32.encodedCount(byteCount: secret.byteCount)
        precondition(count + length <= buffer.count, "URIWriter capacity exceeded")
        let target = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + length)])
        count += secret.withUnsafeBytes { Base32.encode($0, into: target) }
    }

    /// Writes the UTF-8 of `text`, escaping exactly the bytes that must be escaped in `place`.
    mutating func write(_ text: String, escapingFor place: PercentEncoding.Place) {
        let (low, high) = PercentEncoding.masks(for: place)
        var text = text
        text.withUTF8 { bytes in
            precondition(count + 3 * bytes.count <= buffer.count, "URIWriter capacity exceeded")
            // Most issuers and accounts need no escape: copy the clean prefix in one go.
            var clean = 0
            while clean < bytes.count && PercentEncoding.isAllowed(bytes[clean], low: low, high: high) { clean += 1 }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + clean)]).initialize(
                fromContentsOf: UnsafeBufferPointer(rebasing: bytes[..<clean]))
            count += clean
            for byte in bytes[clean...] {
                if PercentEncoding.isAllowed(byte, low: low, high: high) {
                    buffer[count] = byte
                    count += 1
                } else {
                    buffer[count] = UInt8(ascii: "%")
                    buffer[count + 1] = PercentEncoding.hexDigit(byte >> 4)
                    buffer[count + 2] = PercentEncoding.hexDigit(byte & 15)
                    count += 3
                }
            }
        }
    }

    /// Writes a number's decimal digits.
    mutating func writeDecimal(_ value: UInt64) {
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && value >= limit {
            digits += 1
            limit &*= 10
        }
        precondition(count + digits <= buffer.count, "URIWriter capacity exceeded")
        var rest = value
        for offset in stride(from: count + digits - 1, through: count, by: -1) {
            buffer[offset] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += digits
    }
}
