import CPhoneNumber

/// A phone number that Google's libphonenumber parses and validates, kept in E.164 form
/// (`+` and at most 15 digits), the one spelling SMS gateways take and the form stores compare.
///
/// Two spellings of one number give equal values: `"(201) 555-0123"` read in the region `"US"` and
/// `"+1 201-555-0123"` are both `+12015550123`.
///
/// ```swift
/// let number = try PhoneNumber(parsing: "030 123456", defaultRegion: "DE")
/// number.e164                 // "+4930123456"
/// number.countryCallingCode   // 49
/// number.masked               // "+49****3456"
/// ```
public struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number in E.164 form, such as `+12015550123`.
    public let e164: String
    /// The country calling code, such as 1 for the United States and Canada or 49 for Germany.
    public let countryCallingCode: Int

    /// Parses, validates and normalizes a phone number as a person typed it.
    ///
    /// Spaces, dashes, dots and parentheses between the digits are ignored. A number in
    /// international form (`+49 30 123456`) needs no region; one in national form
    /// (`030 123456`) is read as a number of `defaultRegion`, an ISO 3166 alpha-2 code such as
    /// `"US"` or `"DE"` (either case).
    ///
    /// - Parameters:
    ///   - text: The number as entered.
    ///   - defaultRegion: The region of a number written without its country calling code.
    /// - Throws: ``PhoneNumberError`` naming what is wrong with the number, never repeating it.
    public init(parsing text: String, defaultRegion: String? = nil) throws(PhoneNumberError) {
        // libphonenumber calls an empty text "not a number"; the person only forgot to type one.
        guard text.contains(where: { !$0.isWhitespace }) else { throw .empty }
        var region: String? = nil
        if let defaultRegion {
            guard let code = Self.regionCode(defaultRegion) else { throw .unknownRegion }
            region = code
        }
        let parsed = Self.parse(text, region: region)
        if let error = PhoneNumberError(parsed.status) { throw error }
        e164 = parsed.e164
        countryCallingCode = parsed.countryCallingCode
    }

    /// `text` in the upper case libphonenumber requires, when it is two ASCII letters. Only those:
    /// `uppercased()` would make "ß" into "SS", a real region (South Sudan).
    private static func regionCode(_ text: String) -> String? {
        let letters = text.utf8.map { $0 & 0xDF }  // ASCII lower case to upper; no other byte lands in A...Z
        guard letters.count == 2, letters.allSatisfy({ (0x41...0x5A).contains($0) }) else { return nil }
        return String(decoding: letters, as: UTF8.self)
    }

    private static func parse(_ text: String, region: String?) -> (status: cpn_status, e164: String, countryCallingCode: Int) {
        var text = text
        return text.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CPN_E164_CAPACITY)) { buffer in
                var code: Int32 = 0
                let status = utf8.withMemoryRebound(to: CChar.self) { characters in
                    if let region {
                        region.withCString { cpn_parse(characters.baseAddress, characters.count, $0, buffer.baseAddress, buffer.count, &code) }
                    } else {
                        cpn_parse(characters.baseAddress, characters.count, nil, buffer.baseAddress, buffer.count, &code)
                    }
                }
                guard status == CPN_OK else { return (status, "", 0) }
                return (status, String(cString: buffer.baseAddress!), Int(code))
            }
        }
    }

    /// The number as a hint shows it: `+`, the country calling code and the last four digits, every
    /// other digit a `*` (`+12015550123` → `+1******0123`).
    ///
    /// Numbers of fewer than eight national digits (some small territories) keep only their last
    /// half, so that a mask never shows a whole number: `+6837012` → `+683**12`.
    public var masked: String {
        let prefixLength = 1 + String(countryCallingCode).utf8.count
        let national = e164.utf8.count - prefixLength
        let shown = min(4, national / 2)
        return String(e164.prefix(prefixLength)) + String(repeating: "*", count: national - shown) + String(e164.suffix(shown))
    }

    /// The E.164 form.
    public var description: String { e164 }
}
