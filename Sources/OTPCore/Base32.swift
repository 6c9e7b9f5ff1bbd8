/// Base32 as defined by RFC 4648 section 6, the encoding of TOTP secrets.
///
/// Encoding produces uppercase letters without padding, the form authenticator apps expect.
/// Decoding is lenient by default, because secrets are typed and pasted by people.
public enum Base32 {
    /// How forgiving ``decode(_:mode:)`` is.
    public enum DecodingMode: Sendable, Hashable {
        /// Any letter case; spaces, tabs, line breaks and hyphens ignored; padding optional.
        case lenient
        /// RFC 4648 canonical form only: `A-Z` and `2-7`, optional padding that must then be
        /// complete, and zero bits after the last whole byte.
        case strict
    }

    /// Encodes bytes as uppercase Base32 without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let count = encodedCount(byteCount: bytes.count)
        return String(unsafeUninitializedCapacity: count) { output in
            if let written = bytes.withContiguousStorageIfAvailable({ encode(UnsafeRawBufferPointer($0), into: output) }) {
                return written
            }
            return Array(bytes).withUnsafeBytes { encode($0, into: output) }
        }
    }

    /// The number of characters ``encode(_:into:)`` writes for `byteCount` bytes.
    public static func encodedCount(byteCount: Int) -> Int {
        (byteCount * 8 + 4) / 5
    }

    /// Encodes bytes as uppercase Base32 without padding into `output`, which must hold
    /// ``encodedCount(byteCount:)`` bytes, and returns the number written. For callers that build
    /// a larger text (an otpauth:// URI) around the secret without an intermediate String.
    public static func encode(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(output.count >= encodedCount(byteCount: bytes.count), "Base32 output buffer too small")
        // The alphabet is read through one pointer: a static array per character costs a lazy
        // initialization check each time, which dominated formatting an otpauth:// URI.
        return alphabet.withUnsafeBufferPointer { alphabet in
            var written = 0
            var index = 0
            // Five bytes make exactly eight characters: whole groups skip the bit juggling.
            while index + 5 <= bytes.count {
                var group: UInt64 = 0
                for offset in 0..<5 { group = group << 8 | UInt64(bytes[index + offset]) }
                for offset in 0..<8 {
                    output[written + offset] = alphabet[Int((group >> UInt64(35 - 5 * offset)) & 31)]
                }
                written += 8
                index += 5
            }
            var buffer: UInt64 = 0
            var bits = 0
            while index < bytes.count {
                buffer = (buffer << 8) | UInt64(bytes[index])
                bits += 8
                index += 1
                while bits >= 5 {
                    bits -= 5
                    output[written] = alphabet[Int((buffer >> UInt64(bits)) & 31)]
                    written += 1
                }
            }
            if bits > 0 {
                output[written] = alphabet[Int((buffer << UInt64(5 - bits)) & 31)]
                written += 1
            }
            return written
        }
    }

    /// Decodes Base32 text.
    ///
    /// - Throws: ``OTPError/invalidBase32Character(_:offset:)`` naming the first bad character and
    ///   its offset (counted in Unicode scalars from 0), ``OTPError/invalidBase32Length(_:)``,
    ///   ``OTPError/invalidBase32Padding(offset:)`` or, in strict mode, ``OTPError/nonCanonicalBase32``.
    @inlinable
    public static func decode(_ text: some StringProtocol, mode: DecodingMode = .lenient) throws(OTPError) -> [UInt8] {
        try text.withUTF8Bytes { bytes throws(OTPError) in try decode(utf8: bytes, mode: mode) }
    }

    @usableFromInline
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>, mode: DecodingMode) throws(OTPError) -> [UInt8] {
        let capacity = maximumDecodedCount(utf8Count: bytes.count)
        var result = [UInt8](repeating: 0, count: capacity)
        // `withUnsafeMutableBytes` rethrows untyped errors: the typed one crosses it in a `Result`.
        let count = try result.withUnsafeMutableBytes { output in
            Result { () throws(OTPError) in try decode(utf8: bytes, mode: mode, into: output) }
        }.get()
        result.removeLast(capacity - count)
        return result
    }

    static func maximumDecodedCount(utf8Count: Int) -> Int {
        utf8Count * 5 / 8
    }

    /// Decodes into `output`, which must hold ``maximumDecodedCount(utf8Count:)`` bytes, and returns
    /// the number written. Secrets decode straight into their zeroing storage through this.
    /// Decodes UTF-8 Base32 text into `output`, which must hold
    /// ``maximumDecodedCount(utf8Count:)`` bytes, and returns the number written. Secrets decode
    /// straight into their zeroing storage through this.
    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>, mode: DecodingMode, into output: UnsafeMutableRawBufferPointer) throws(OTPError) -> Int
    {
        // One table pointer for the whole text: reading a static array per character costs a lazy
        // initialization check each time.
        try (mode == .strict ? strictDecodingTable : decodingTable).withUnsafeBufferPointer { table throws(OTPError) in
            try decode(bytes, table: table, mode: mode, into: output)
        }
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>,
        table decodingTable: UnsafeBufferPointer<UInt8>,
        mode: DecodingMode,
        into output: UnsafeMutableRawBufferPointer
    ) throws(OTPError) -> Int {
        var buffer: UInt64 = 0
        var bits = 0
        var written = 0
        var dataCount = 0
        var paddingStart: Int? = nil
        var paddingCount = 0
        // Whole groups of eight alphabet characters (nearly every secret, all but its tail) decode
        // to five bytes at once; anything else (padding, separators, errors) takes the loop below.
        var start = 0
        while start + 8 <= bytes.count {
            var group: UInt64 = 0
            var combined: UInt8 = 0
            for offset in 0..<8 {
                let value = decodingTable[Int(bytes[start + offset])]
                combined |= value
                group = group << 5 | UInt64(value)
            }
            guard combined < 32 else { break }
            for offset in 0..<5 {
                output[written + offset] = UInt8(truncatingIfNeeded: group >> UInt64(32 - 8 * offset))
            }
            written += 5
            dataCount += 8
            start += 8
        }
        for utf8Offset in start..<bytes.count {
            let byte = bytes[utf8Offset]
            let value = decodingTable[Int(byte)]
            if value < 32 {
                if paddingStart != nil {
                    throw OTPError.invalidBase32Padding(offset: bytes.scalarIndex(containingByte: utf8Offset))
                }
                buffer = (buffer << 5) | UInt64(value)
                bits += 5
                dataCount += 1
                if bits >= 8 {
                    bits -= 8
                    output[written] = UInt8(truncatingIfNeeded: buffer >> UInt64(bits))
                    written += 1
                }
            } else if value == padding {
                if paddingStart == nil { paddingStart = utf8Offset }
                paddingCount += 1
            } else if value == ignorable && mode == .lenient {
                continue
            } else {
                throw invalidCharacter(in: bytes, utf8Offset: utf8Offset)
            }
        }
        switch dataCount % 8 {
        case 1, 3, 6:
            throw .invalidBase32Length(dataCount)
        default:
            break
        }
        if let paddingStart {
            let expected = (8 - dataCount % 8) % 8
            let misplaced = expected == 0 || (mode == .strict ? paddingCount != expected : paddingCount > expected)
            if misplaced {
                throw .invalidBase32Padding(offset: bytes.scalarIndex(containingByte: paddingStart))
            }
        }
        if mode == .strict && buffer & ((1 << UInt64(bits)) - 1) != 0 {
            throw .nonCanonicalBase32
        }
        return written
    }

    private static func invalidCharacter(in bytes: UnsafeBufferPointer<UInt8>, utf8Offset: Int) -> OTPError {
        // Errors are rare, so finding the scalar that contains the byte by walking is fine.
        let string = String(decoding: bytes, as: UTF8.self)
        var consumed = 0
        for (offset, scalar) in string.unicodeScalars.enumerated() {
            consumed += UTF8.width(scalar)
            if consumed > utf8Offset {
                return .invalidBase32Character(Character(scalar), offset: offset)
            }
        }
        return .invalidBase32Length(utf8Offset)
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    private static let padding: UInt8 = 0xFE
    private static let ignorable: UInt8 = 0xFD

    /// ``decodingTable`` without lowercase letters, which strict decoding rejects.
    private static let strictDecodingTable: [UInt8] = {
        var table = decodingTable
        for symbol in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(symbol)] = 0xFF }
        return table
    }()

    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, symbol) in alphabet.enumerated() {
            table[Int(symbol)] = UInt8(value)
            if symbol >= UInt8(ascii: "A") && symbol <= UInt8(ascii: "Z") {
                table[Int(symbol + 32)] = UInt8(value)
            }
        }
        table[Int(UInt8(ascii: "="))] = padding
        for symbol in [" ", "\t", "\n", "\r", "-"] {
            table[Int(symbol.utf8.first!)] = ignorable
        }
        return table
    }()
}
