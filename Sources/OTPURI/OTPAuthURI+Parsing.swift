import OTPCore

import Glibc

extension OTPAuthURI {
    /// Parses an otpauth:// URI.
    ///
    /// The label is split into issuer and account at its first literal `:` (or, when it has none,
    /// at the first `%3A`) before percent-decoding, so an escaped colon inside the issuer or
    /// account stays part of it. Spaces after the separator are dropped. A fragment (`#…`) is
    /// ignored.
    ///
    /// - Parameter text: The URI, as scanned or pasted.
    /// - Parameter mode: ``ParsingMode/lenient`` (default) for URIs from the wild,
    ///   ``ParsingMode/strict`` to accept only well-formed ones.
    /// - Throws: an ``OTPURIError`` naming the offending part.
    public init(parsing text: String, mode: ParsingMode = .lenient) throws(OTPURIError) {
        var contiguous = text
        // `withUTF8` rethrows untyped errors: the typed one crosses it in a `Result`.
        self = try contiguous.withUTF8 { bytes in
            Result { () throws(OTPURIError) in try URIParser(bytes: bytes, source: text, strict: mode == .strict).parse() }
        }.get()
    }
}

/// The parser behind ``OTPAuthURI/init(parsing:mode:)``, working on the URI's UTF-8 bytes.
private struct URIParser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The String `bytes` belong to, for slicing without copying.
    let source: String
    let strict: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, source: String, strict: Bool) {
        self.bytes = bytes
        self.source = source
        self.strict = strict
    }

    func parse() throws(OTPURIError) -> OTPAuthURI {
        let end = index(of: UInt8(ascii: "#"), in: 0..<bytes.count) ?? bytes.count
        // "otpauth:" is 8 bytes: one comparison. Setting bit 5 lowercases letters, and only a
        // letter's two cases map to a lowercase letter, so the test is exact for the letters.
        guard end >= 10,
            word(0..<8) | 0x0020_2020_2020_2020 == Word.otpauthColon,
            bytes[8] == UInt8(ascii: "/"), bytes[9] == UInt8(ascii: "/")
        else { throw .invalidScheme }

        var position = 10
        let typeStart = position
        while position < end, bytes[position] != UInt8(ascii: "/"), bytes[position] != UInt8(ascii: "?") {
            position += 1
        }
        let kind = try parseKind(typeStart..<position)

        var labelRange = position..<position
        if position < end, bytes[position] == UInt8(ascii: "/") {
            let labelStart = position + 1
            position = index(of: UInt8(ascii: "?"), in: labelStart..<end) ?? end
            labelRange = labelStart..<position
        }
        let (labelIssuerRange, labelIssuer, accountName) = try parseLabel(labelRange)

        var fields = KnownFields()
        var additional: [OTPAuthURI.Parameter] = []
        if position < end {
            let prefix = labelIssuerRange.flatMap { range in labelIssuer.map { (range, $0) } }
            try parseQuery(position + 1..<end, kind: kind, labelIssuer: prefix, into: &fields, additional: &additional)
        }

        let issuer: String?
        switch (labelIssuer, fields.issuer) {
        case (let fromLabel?, let fromParameter?) where fromLabel != fromParameter:
            if strict { throw .issuerMismatch(label: fromLabel, parameter: fromParameter) }
            issuer = fromParameter
        case (_, let fromParameter?):
            issuer = fromParameter
        case (let fromLabel, nil):
            issuer = fromLabel
        }
        if strict && accountName.isEmpty { throw .missingAccountName }

        guard let secretText = fields.secret else { throw .missingSecret }
        guard !secretText.isEmpty else { throw .emptySecret }
        let secret: OTPSecret
        do {
            secret = try OTPSecret(base32: secretText, mode: strict ? .strict : .lenient)
        } catch {
            throw .invalidSecret(error)
        }

        var counter = fields.counter
        if kind == .hotp && counter == nil {
            if strict { throw .missingCounter }
            counter = 0
        }
        return try OTPAuthURI(
            kind: kind,
            issuer: issuer,
            accountName: accountName,
            secret: secret,
            algorithm: fields.algorithm ?? .sha1,
            digits: fields.digits ?? OTPAuthURI.defaultDigits,
            period: fields.period ?? OTPAuthURI.defaultPeriod,
            counter: counter,
            additionalParameters: additional
        )
    }

    // MARK: - Parts

    private func parseKind(_ range: Range<Int>) throws(OTPURIError) -> OTPAuthURI.Kind {
        if range.count == 4 {
            let type = word(range) | (strict ? 0 : 0x2020_2020)
            if type == Word.totp { return .totp }
            if type == Word.hotp { return .hotp }
        }
        throw .invalidType(decodeLossy(range))
    }

    /// Splits the label; returns the issuer prefix's raw range and decoded text, and the account.
    private func parseLabel(_ range: Range<Int>) throws(OTPURIError) -> (Range<Int>?, String?, String) {
        var separator: Range<Int>? = nil
        if let colon = index(of: UInt8(ascii: ":"), in: range) {
            separator = colon..<colon + 1
            if strict && index(of: UInt8(ascii: ":"), in: colon + 1..<range.upperBound) != nil {
                throw .ambiguousLabel
            }
        } else {
            var position = range.lowerBound
            while position + 2 < range.upperBound {
                if bytes[position] == UInt8(ascii: "%") && bytes[position + 1] == UInt8(ascii: "3")
                    && lowercased(bytes[position + 2]) == UInt8(ascii: "a")
                {
                    separator = position..<position + 3
                    break
                }
                position += 1
            }
        }
        guard let separator else {
            return (nil, nil, try decode(range, component: .label, plusIsSpace: false))
        }
        let issuer = try decode(range.lowerBound..<separator.lowerBound, component: .label, plusIsSpace: false)
        // Google's format allows optional spaces, raw or `%20`, after the separator, whether or not
        // an issuer precedes it; both modes drop them, so they read one label alike.
        var accountStart = separator.upperBound
        while accountStart < range.upperBound {
            if bytes[accountStart] == UInt8(ascii: " ") {
                accountStart += 1
            } else if accountStart + 2 < range.upperBound, bytes[accountStart] == UInt8(ascii: "%"),
                bytes[accountStart + 1] == UInt8(ascii: "2"), bytes[accountStart + 2] == UInt8(ascii: "0")
            {
                accountStart += 3
            } else {
                break
            }
        }
        let account = try decode(accountStart..<range.upperBound, component: .label, plusIsSpace: false)
        return (range.lowerBound..<separator.lowerBound, issuer.isEmpty ? nil : issuer, account)
    }

    private struct KnownFields {
        var secret: Substring?
        var issuer: String?
        var algorithm: OTPAlgorithm?
        var digits: Int?
        var period: Int64?
        var counter: UInt64?
        var seen: UInt8 = 0
    }

    private enum Known: UInt8 {
        case secret = 1
        case issuer = 2
        case algorithm = 4
        case digits = 8
        case period = 16
        case counter = 32

        var name: String {
            switch self {
            case .secret: "secret"
            case .issuer: "issuer"
            case .algorithm: "algorithm"
            case .digits: "digits"
            case .period: "period"
            case .counter: "counter"
            }
        }
    }

    private func parseQuery(
        _ range: Range<Int>,
        kind: OTPAuthURI.Kind,
        labelIssuer: (range: Range<Int>, text: String)?,
        into fields: inout KnownFields,
        additional: inout [OTPAuthURI.Parameter]
    ) throws(OTPURIError) {
        var unknownNames: Set<String> = []
        var start = range.lowerBound
        while start <= range.upperBound {
            let stop = index(of: UInt8(ascii: "&"), in: start..<range.upperBound) ?? range.upperBound
            defer { start = stop + 1 }
            if start == stop { continue }
            let equals = index(of: UInt8(ascii: "="), in: start..<stop)
            let nameRange = start..<(equals ?? stop)
            let valueRange = equals.map { $0 + 1..<stop } ?? stop..<stop
            let known = knownParameter(nameRange, kind: kind)
            if equals == nil && strict {
                throw .malformedParameter(decodeLossy(nameRange))
            }
            guard let known else {
                let name = try decode(nameRange, component: .parameterName, plusIsSpace: !strict)
                let value = try decode(valueRange, component: .parameter(name), plusIsSpace: !strict)
                if strict && !unknownNames.insert(name).inserted { throw .duplicateParameter(name) }
                additional.append(OTPAuthURI.Parameter(name: name, value: value))
                continue
            }
            let name = known.name
            if fields.seen & known.rawValue != 0 {
                if strict { throw .duplicateParameter(name) }
                continue  // lenient: the first occurrence counts, as in most apps
            }
            fields.seen |= known.rawValue
            switch known {
            case .secret:
                // Without escapes the secret is decoded straight from the URI's own bytes.
                if needsDecoding(valueRange, plusIsSpace: !strict) {
                    fields.secret = Substring(try decode(valueRange, component: .parameter(name), plusIsSpace: !strict))
                } else {
                    let utf8 = source.utf8
                    let start = utf8.index(utf8.startIndex, offsetBy: valueRange.lowerBound)
                    let end = utf8.index(start, offsetBy: valueRange.count)
                    fields.secret = Substring(utf8[start..<end])
                }
            case .issuer:
                // Usually the parameter repeats the label's prefix byte for byte: reuse that text
                // (unless a `+`, which only the parameter reads as a space, is in it).
                if let labelIssuer, labelIssuer.range.count == valueRange.count,
                    memcmp(bytes.baseAddress! + labelIssuer.range.lowerBound, bytes.baseAddress! + valueRange.lowerBound, valueRange.count) == 0,
                    strict || index(of: UInt8(ascii: "+"), in: valueRange) == nil
                {
                    fields.issuer = labelIssuer.text
                    continue
                }
                let issuer = try decode(valueRange, component: .parameter(name), plusIsSpace: !strict)
                fields.issuer = issuer.isEmpty ? nil : issuer
            case .algorithm:
                // The canonical names, compared as bytes, spare a String for nearly every URI.
                switch (valueRange.count, valueRange.count <= 8 ? word(valueRange) : 0) {
                case (4, Word.sha1):
                    fields.algorithm = .sha1
                    continue
                case (6, Word.sha256):
                    fields.algorithm = .sha256
                    continue
                case (6, Word.sha512):
                    fields.algorithm = .sha512
                    continue
                default: break
                }
                let text = try decode(valueRange, component: .parameter(name), plusIsSpace: !strict)
                // The canonical spelling first: the lenient normalization costs Unicode case mapping.
                let algorithm = OTPAlgorithm(rawValue: text) ?? (strict ? nil : OTPAlgorithm(name: text))
                guard let algorithm else { throw .unknownAlgorithm(text) }
                fields.algorithm = algorithm
            case .digits:
                guard let digits = try number(valueRange, name: name, maximum: 10), digits >= 6 else {
                    throw .invalidDigits(decodeLossy(valueRange))
                }
                fields.digits = Int(digits)
            case .period:
                guard let period = try number(valueRange, name: name, maximum: UInt64(Int64.max)), period >= 1 else {
                    throw .invalidPeriod(decodeLossy(valueRange))
                }
                fields.period = Int64(period)
            case .counter:
                guard let counter = try number(valueRange, name: name, maximum: .max) else {
                    throw .invalidCounter(decodeLossy(valueRange))
                }
                fields.counter = counter
            }
        }
    }

    /// Which defined parameter `range` names; `counter` on a TOTP URI counts as unknown and is kept.
    private func knownParameter(_ range: Range<Int>, kind: OTPAuthURI.Kind) -> Known? {
        guard (6...9).contains(range.count) else { return nil }
        // Every defined name is lowercase letters, so setting bit 5 of each byte (lenient) matches
        // exactly their upper- and lowercase spellings.
        let headCount = min(range.count, 8)
        let caseBits: UInt64 = strict ? 0 : 0x2020_2020_2020_2020 >> UInt64(8 * (8 - headCount))
        let head = word(range.lowerBound..<range.lowerBound + headCount) | caseBits
        switch range.count {
        case 6:
            switch head {
            case Word.secret: return .secret
            case Word.issuer: return .issuer
            case Word.digits: return .digits
            case Word.period: return .period
            default: return nil
            }
        case 7:
            return kind == .hotp && head == Word.counter ? .counter : nil
        case 9:
            let last = bytes[range.upperBound - 1] | (strict ? 0 : 0x20)
            return head == Word.algorith && last == UInt8(ascii: "m") ? .algorithm : nil
        default:
            return nil
        }
    }

    /// Up to 8 bytes of `range` as a little-endian integer, for comparing short names at once.
    @inline(__always)
    private func word(_ range: Range<Int>) -> UInt64 {
        if range.lowerBound + 8 <= bytes.count, let base = bytes.baseAddress {
            let value = UnsafeRawPointer(base + range.lowerBound).loadUnaligned(as: UInt64.self)
            let count = range.count
            return count >= 8 ? UInt64(littleEndian: value) : UInt64(littleEndian: value) & ((1 << UInt64(8 * count)) - 1)
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        for position in range {
            value |= UInt64(bytes[position]) << shift
            shift += 8
        }
        return value
    }

    /// Names as ``word(_:)`` reads them (little-endian ASCII), written out so that they are
    /// constants rather than computed per comparison.
    private enum Word {
        static let otpauthColon: UInt64 = 0x3A68_7475_6170_746F  // "otpauth:"
        static let totp: UInt64 = 0x7074_6F74
        static let hotp: UInt64 = 0x7074_6F68
        static let secret: UInt64 = 0x7465_7263_6573
        static let issuer: UInt64 = 0x7265_7573_7369
        static let digits: UInt64 = 0x7374_6967_6964
        static let period: UInt64 = 0x646F_6972_6570
        static let counter: UInt64 = 0x72_6574_6E75_6F63
        static let algorith: UInt64 = 0x6874_6972_6F67_6C61  // "algorithm" without its last byte
        static let sha1: UInt64 = 0x3141_4853
        static let sha256: UInt64 = 0x3635_3241_4853
        static let sha512: UInt64 = 0x3231_3541_4853
    }

    // MARK: - Bytes

    @inline(__always)
    private func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private func index(of target: UInt8, in range: Range<Int>) -> Int? {
        // Most ranges are a few bytes long, where a loop beats a call to memchr.
        if range.count < 24 {
            for position in range where bytes[position] == target { return position }
            return nil
        }
        guard let base = bytes.baseAddress,
            let found = memchr(base + range.lowerBound, Int32(target), range.count)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Parses a decimal number up to `maximum` (lenient: with spaces around it, also as `+` or
    /// `%20`). Escaped digits are decoded first, as any parameter value is.
    private func number(_ range: Range<Int>, name: String, maximum: UInt64) throws(OTPURIError) -> UInt64? {
        if index(of: UInt8(ascii: "%"), in: range) != nil {
            let decoded = try decode(range, component: .parameter(name), plusIsSpace: !strict)
            return Self.number(Array(decoded.utf8)[...], strict: strict, maximum: maximum)
        }
        return Self.number(UnsafeBufferPointer(rebasing: bytes[range]), strict: strict, maximum: maximum)
    }

    private static func number<Bytes: BidirectionalCollection<UInt8>>(_ digits: Bytes, strict: Bool, maximum: UInt64) -> UInt64? {
        var digits = digits[...]
        if !strict {
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "+") }
            while let first = digits.first, isSpace(first) { digits = digits.dropFirst() }
            while let last = digits.last, isSpace(last) { digits = digits.dropLast() }
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2, sum <= maximum else { return nil }
            value = sum
        }
        return value
    }

    /// Whether `range` holds an escape (or a `+` that means a space) and so differs decoded.
    @inline(__always)
    private func needsDecoding(_ range: Range<Int>, plusIsSpace: Bool) -> Bool {
        for position in range {
            let byte = bytes[position]
            if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: "+") && plusIsSpace) { return true }
        }
        return false
    }

    /// Percent-decodes `range`. Strict: a malformed escape or non-UTF-8 result is an error.
    /// Lenient: a malformed escape stays literal and bad UTF-8 becomes U+FFFD.
    private func decode(_ range: Range<Int>, component: OTPURIError.Component, plusIsSpace: Bool) throws(OTPURIError) -> String {
        if !needsDecoding(range, plusIsSpace: plusIsSpace) {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        // Decoded text is never longer than its escaped form: decode straight into the String.
        var failure: OTPURIError? = nil
        let text = String(unsafeUninitializedCapacity: range.count) { decoded in
            var count = 0
            var escapedNonASCII = false
            var position = range.lowerBound
            while position < range.upperBound {
                let byte = bytes[position]
                if byte == UInt8(ascii: "%") {
                    if position + 2 < range.upperBound,
                        let high = PercentEncoding.hexValue(bytes[position + 1]),
                        let low = PercentEncoding.hexValue(bytes[position + 2])
                    {
                        let value = high << 4 | low
                        escapedNonASCII = escapedNonASCII || value >= 0x80
                        decoded[count] = value
                        count += 1
                        position += 3
                        continue
                    }
                    if strict {
                        failure = .malformedPercentEncoding(component, offset: bytes.scalarIndex(containingByte: position))
                        return 0
                    }
                    decoded[count] = byte
                } else if byte == UInt8(ascii: "+") && plusIsSpace {
                    decoded[count] = UInt8(ascii: " ")
                } else {
                    decoded[count] = byte
                }
                count += 1
                position += 1
            }
            // Unescaped bytes come from a String and are valid UTF-8; only escapes can break it.
            // Lenient parsing lets String repair it (U+FFFD); strict parsing refuses it.
            if strict && escapedNonASCII
                && String(validating: UnsafeBufferPointer(rebasing: decoded[..<count]), as: UTF8.self) == nil
            {
                failure = .invalidUTF8(component)
                return 0
            }
            return count
        }
        if let failure { throw failure }
        return text
    }

    /// Decodes for an error message, never failing.
    private func decodeLossy(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
