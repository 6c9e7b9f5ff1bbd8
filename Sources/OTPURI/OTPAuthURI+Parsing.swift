import OTPCore

extension OTPAuthURI {
    /// Parses an otpauth:// URI.
    ///
    /// The label is split into issuer and account at its first literal `:` (or, when it has none,
    /// at the first `%3A`) before percent-decoding, so an escaped colon inside the issuer or
    /// account stays part of it. Spaces after the separator are dropped. A fragment (`#…`) is
    /// ignored.
    ///
    /// - Parameter mode: ``ParsingMode/lenient`` (default) for URIs from the wild,
    ///   ``ParsingMode/strict`` to accept only well-formed ones.
    /// - Throws: an ``OTPURIError`` naming the offending part.
    public init(parsing text: String, mode: ParsingMode = .lenient) throws(OTPURIError) {
        var text = text
        let result: Result<OTPAuthURI, OTPURIError> = text.withUTF8 { bytes in
            do throws(OTPURIError) {
                return .success(try URIParser(bytes: bytes, strict: mode == .strict).parse())
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}

/// The parser behind ``OTPAuthURI/init(parsing:mode:)``, working on the URI's UTF-8 bytes.
private struct URIParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let strict: Bool

    init(bytes: UnsafeBufferPointer<UInt8>, strict: Bool) {
        self.bytes = bytes
        self.strict = strict
    }

    private static let scheme = Array("otpauth://".utf8)

    func parse() throws(OTPURIError) -> OTPAuthURI {
        let end = index(of: UInt8(ascii: "#"), in: 0..<bytes.count) ?? bytes.count
        guard end >= Self.scheme.count else { throw .invalidScheme }
        for (offset, expected) in Self.scheme.enumerated() where lowercased(bytes[offset]) != expected {
            throw .invalidScheme
        }

        var position = Self.scheme.count
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
        let (labelIssuer, accountName) = try parseLabel(labelRange)

        var fields = KnownFields()
        var additional: [OTPAuthURI.Parameter] = []
        if position < end {
            try parseQuery(position + 1..<end, kind: kind, into: &fields, additional: &additional)
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
            let first = strict ? bytes[range.lowerBound] : lowercased(bytes[range.lowerBound])
            var rest = true
            for (offset, expected) in "otp".utf8.enumerated() {
                let byte = bytes[range.lowerBound + 1 + offset]
                if (strict ? byte : lowercased(byte)) != expected { rest = false }
            }
            if rest && first == UInt8(ascii: "t") { return .totp }
            if rest && first == UInt8(ascii: "h") { return .hotp }
        }
        throw .invalidType(decodeLossy(range))
    }

    /// Splits the label into an optional issuer prefix and the account name.
    private func parseLabel(_ range: Range<Int>) throws(OTPURIError) -> (String?, String) {
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
            return (nil, try decode(range, component: .label, plusIsSpace: false))
        }
        let issuer = try decode(range.lowerBound..<separator.lowerBound, component: .label, plusIsSpace: false)
        var accountStart = separator.upperBound
        if !issuer.isEmpty {
            // Google's ABNF allows `*"%20"` after the separator; lenient parsing also skips raw spaces.
            while accountStart < range.upperBound {
                if bytes[accountStart] == UInt8(ascii: " ") && !strict {
                    accountStart += 1
                } else if accountStart + 2 < range.upperBound, bytes[accountStart] == UInt8(ascii: "%"),
                    bytes[accountStart + 1] == UInt8(ascii: "2"), bytes[accountStart + 2] == UInt8(ascii: "0")
                {
                    accountStart += 3
                } else {
                    break
                }
            }
        }
        let account = try decode(accountStart..<range.upperBound, component: .label, plusIsSpace: false)
        return (issuer.isEmpty ? nil : issuer, account)
    }

    private struct KnownFields {
        var secret: String?
        var issuer: String?
        var algorithm: OTPAlgorithm?
        var digits: Int?
        var period: Int64?
        var counter: UInt64?
        var seen: UInt8 = 0
    }

    private enum Known: UInt8 {
        case secret = 1, issuer = 2, algorithm = 4, digits = 8, period = 16, counter = 32

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
                fields.secret = try decode(valueRange, component: .parameter(name), plusIsSpace: !strict)
            case .issuer:
                let issuer = try decode(valueRange, component: .parameter(name), plusIsSpace: !strict)
                fields.issuer = issuer.isEmpty ? nil : issuer
            case .algorithm:
                let text = try decode(valueRange, component: .parameter(name), plusIsSpace: !strict)
                let algorithm = strict ? OTPAlgorithm(rawValue: text) : OTPAlgorithm(name: text)
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
        func matches(_ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            for offset in 0..<range.count {
                let byte = bytes[range.lowerBound + offset]
                if (strict ? byte : lowercased(byte)) != expected[offset] { return false }
            }
            return true
        }
        switch range.count {
        case 6:
            if matches("secret") { return .secret }
            if matches("issuer") { return .issuer }
            if matches("digits") { return .digits }
            if matches("period") { return .period }
        case 7:
            if kind == .hotp && matches("counter") { return .counter }
        case 9:
            if matches("algorithm") { return .algorithm }
        default:
            break
        }
        return nil
    }

    // MARK: - Bytes

    @inline(__always)
    private func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private func index(of target: UInt8, in range: Range<Int>) -> Int? {
        var position = range.lowerBound
        while position < range.upperBound {
            if bytes[position] == target { return position }
            position += 1
        }
        return nil
    }

    /// Parses a decimal number up to `maximum` from the percent-decoded value (lenient: spaces
    /// around it allowed).
    private func number(_ range: Range<Int>, name: String, maximum: UInt64) throws(OTPURIError) -> UInt64? {
        let text = try decode(range, component: .parameter(name), plusIsSpace: !strict)
        var digits = Substring(text)
        if !strict {
            digits = digits.drop { $0 == " " }
            while digits.last == " " { digits = digits.dropLast() }
        }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits.utf8 {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2, sum <= maximum else { return nil }
            value = sum
        }
        return value
    }

    /// Percent-decodes `range`. Strict: a malformed escape or non-UTF-8 result is an error.
    /// Lenient: a malformed escape stays literal and bad UTF-8 becomes U+FFFD.
    private func decode(_ range: Range<Int>, component: OTPURIError.Component, plusIsSpace: Bool) throws(OTPURIError) -> String {
        var needsWork = false
        for position in range where bytes[position] == UInt8(ascii: "%") || (plusIsSpace && bytes[position] == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        if !needsWork {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            if byte == UInt8(ascii: "%") {
                if position + 2 < range.upperBound,
                    let high = PercentEncoding.hexValue(bytes[position + 1]),
                    let low = PercentEncoding.hexValue(bytes[position + 2])
                {
                    decoded.append(high << 4 | low)
                    position += 3
                    continue
                }
                if strict { throw .malformedPercentEncoding(component, offset: scalarOffset(position)) }
                decoded.append(byte)
            } else if byte == UInt8(ascii: "+") && plusIsSpace {
                decoded.append(UInt8(ascii: " "))
            } else {
                decoded.append(byte)
            }
            position += 1
        }
        if strict {
            guard let text = String(validating: decoded, as: UTF8.self) else { throw .invalidUTF8(component) }
            return text
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Decodes for an error message, never failing.
    private func decodeLossy(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// The offset of byte `position` counted in Unicode scalars, as error messages report it.
    private func scalarOffset(_ position: Int) -> Int {
        var count = 0
        for index in 0..<position where bytes[index] & 0xC0 != 0x80 {
            count += 1
        }
        return count
    }
}
