/// Lowercase hexadecimal, the one encoding OTPKit uses for key ids, checksums and key files.
package enum Hex {
    private static var digits: StaticString { "0123456789abcdef" }

    /// Writes the two lowercase digits of each byte of `bytes` to `output`, which holds twice as many.
    package static func encode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= 2 * bytes.count, "hex output buffer too small")
        digits.withUTF8Buffer { digits in
            for (index, byte) in bytes.enumerated() {
                output[2 * index] = digits[Int(byte >> 4)]
                output[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
        }
    }

    /// `bytes` as lowercase hexadecimal.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        let array = Array(bytes)
        return String(unsafeUninitializedCapacity: 2 * array.count) { output in
            array.withUnsafeBytes { encode($0, into: UnsafeMutableRawBufferPointer(output)) }
            return 2 * array.count
        }
    }

    /// The value of one hexadecimal digit (either case), or `nil`.
    package static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Decodes an even number of hexadecimal digits (either case) into `output`, which holds half as
    /// many bytes; returns `false`, leaving `output` partly written, when a character is not a digit.
    package static func decode(_ text: some Collection<UInt8>, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard text.count % 2 == 0, output.count >= text.count / 2 else { return false }
        var index = 0
        var high: UInt8?
        for character in text {
            guard let value = value(of: character) else { return false }
            if let first = high {
                output[index] = first << 4 | value
                index += 1
                high = nil
            } else {
                high = value
            }
        }
        return true
    }

    /// The bytes an even number of hexadecimal digits (either case) spell, or `nil`.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        var bytes = [UInt8](repeating: 0, count: digits.count / 2)
        let decoded = bytes.withUnsafeMutableBytes { decode(digits, into: $0) }
        return decoded ? bytes : nil
    }
}
