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
        let count = (bytes.count * 8 + 4) / 5
        // The alphabet is read through one pointer: a static array per character costs a lazy
        // initialization check each time, which dominated formatting an otpauth:// URI.
        return alphabet.withUnsafeBufferPointer { alphabet in
            String(unsafeUninitializedCapacity: count) { output in
                var buffer: UInt64 = 0
                var bits = 0
                var written = 0
                for byte in bytes {
                    buffer = (buffer << 8) | UInt64(byte)
                    bits += 8
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
    }

    /// Decodes Base32 text.
    ///
    /// - Throws: ``OTPError/invalidBase32Character(_:offset:)`` naming the first bad character and
    ///   its offset (counted in Unicode scalars from 0), ``OTPError/invalidBase32Length(_:)``,
    ///   ``OTPError/invalidBase32Padding(offset:)`` or, in strict mode, ``OTPError/nonCanonicalBase32``.
    public static func decode(_ text: some StringProtocol, mode: DecodingMode = .lenient) throws(OTPError) -> [UInt8] {
        let string = String(text)
        let capacity = maximumDecodedCount(utf8Count: string.utf8.count)
        var result = [UInt8](repeating: 0, count: capacity)
        var failure: OTPError?
        let count = result.withUnsafeMutableBytes { output in
            do throws(OTPError) {
                return try decode(string, mode: mode, into: output)
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        result.removeLast(capacity - count)
        return result
    }

    static func maximumDecodedCount(utf8Count: Int) -> Int {
        utf8Count * 5 / 8
    }

    /// Decodes into `output`, which must hold ``maximumDecodedCount(utf8Count:)`` bytes, and returns
    /// the number written. Secrets decode straight into their zeroing storage through this.
    static func decode(_ string: String, mode: DecodingMode, into output: UnsafeMutableRawBufferPointer) throws(OTPError) -> Int {
        // Works on the contiguous UTF-8 and one table pointer: iterating `string.utf8` and reading
        // a static array per character cost about four times as much (it parses every otpauth://
        // secret and every typed key).
        var contiguous = string
        let result: Result<Int, OTPError> = contiguous.withUTF8 { bytes in
            decodingTable.withUnsafeBufferPointer { table in
                do throws(OTPError) {
                    return .success(try decode(bytes, table: table, mode: mode, into: output, original: string))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try result.get()
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>,
        table decodingTable: UnsafeBufferPointer<UInt8>,
        mode: DecodingMode,
        into output: UnsafeMutableRawBufferPointer,
        original string: String
    ) throws(OTPError) -> Int {
        var buffer: UInt64 = 0
        var bits = 0
        var written = 0
        var dataCount = 0
        var paddingStart: Int? = nil
        var paddingCount = 0
        for utf8Offset in 0..<bytes.count {
            let byte = bytes[utf8Offset]
            let value = decodingTable[Int(byte)]
            if value < 32 {
                if mode == .strict && byte >= UInt8(ascii: "a") {
                    throw invalidCharacter(in: string, utf8Offset: utf8Offset)
                }
                if paddingStart != nil {
                    throw OTPError.invalidBase32Padding(offset: scalarOffset(in: string, utf8Offset: utf8Offset))
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
                throw invalidCharacter(in: string, utf8Offset: utf8Offset)
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
                throw .invalidBase32Padding(offset: scalarOffset(in: string, utf8Offset: paddingStart))
            }
        }
        if mode == .strict && buffer & ((1 << UInt64(bits)) - 1) != 0 {
            throw .nonCanonicalBase32
        }
        return written
    }

    private static func invalidCharacter(in string: String, utf8Offset: Int) -> OTPError {
        // Errors are rare, so finding the scalar that contains the byte by walking is fine.
        var consumed = 0
        for (offset, scalar) in string.unicodeScalars.enumerated() {
            consumed += UTF8.width(scalar)
            if consumed > utf8Offset {
                return .invalidBase32Character(Character(scalar), offset: offset)
            }
        }
        return .invalidBase32Length(utf8Offset)
    }

    private static func scalarOffset(in string: String, utf8Offset: Int) -> Int {
        let utf8Index = string.utf8.index(string.utf8.startIndex, offsetBy: utf8Offset)
        return string.unicodeScalars.distance(from: string.unicodeScalars.startIndex, to: utf8Index)
    }

    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    private static let padding: UInt8 = 0xFE
    private static let ignorable: UInt8 = 0xFD

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
