import OTPPhoneNumber
import Testing

/// Numbers as people type them, in international and national form, normalized to E.164.
@Suite("Parsing and normalizing phone numbers")
struct ParsingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let region: String?
        let e164: String
        let countryCallingCode: Int
        var testDescription: String { "\(text.debugDescription) in \(region ?? "no region")" }
    }

    static let international: [Case] = [
        Case(text: "+12015550123", region: nil, e164: "+12015550123", countryCallingCode: 1),
        Case(text: "+4930123456", region: nil, e164: "+4930123456", countryCallingCode: 49),
        Case(text: "+447400123456", region: nil, e164: "+447400123456", countryCallingCode: 44),
        Case(text: "+33612345678", region: nil, e164: "+33612345678", countryCallingCode: 33),
        // An international number ignores the default region.
        Case(text: "+12015550123", region: "DE", e164: "+12015550123", countryCallingCode: 1),
        Case(text: "+6837012", region: nil, e164: "+6837012", countryCallingCode: 683),
    ]

    static let national: [Case] = [
        Case(text: "(201) 555-0123", region: "US", e164: "+12015550123", countryCallingCode: 1),
        Case(text: "030 123456", region: "DE", e164: "+4930123456", countryCallingCode: 49),
        Case(text: "01512 3456789", region: "DE", e164: "+4915123456789", countryCallingCode: 49),
        Case(text: "07400 123456", region: "GB", e164: "+447400123456", countryCallingCode: 44),
        Case(text: "06 12 34 56 78", region: "FR", e164: "+33612345678", countryCallingCode: 33),
        // Italian numbers keep their leading zero in E.164.
        Case(text: "02 1234 5678", region: "IT", e164: "+390212345678", countryCallingCode: 39),
        Case(text: "090-1234-5678", region: "JP", e164: "+819012345678", countryCallingCode: 81),
        // International prefixes dialled from the default region.
        Case(text: "0049 30 123456", region: "DE", e164: "+4930123456", countryCallingCode: 49),
        Case(text: "011 1 201 555 0123", region: "US", e164: "+12015550123", countryCallingCode: 1),
        // The region's code in either case.
        Case(text: "030 123456", region: "de", e164: "+4930123456", countryCallingCode: 49),
    ]

    static let separators: [Case] = [
        Case(text: "+1 201 555 0123", region: nil, e164: "+12015550123", countryCallingCode: 1),
        Case(text: "+1-201-555-0123", region: nil, e164: "+12015550123", countryCallingCode: 1),
        Case(text: "+1.201.555.0123", region: nil, e164: "+12015550123", countryCallingCode: 1),
        Case(text: "+1 (201) 555-0123", region: nil, e164: "+12015550123", countryCallingCode: 1),
        Case(text: "201.555.0123", region: "US", e164: "+12015550123", countryCallingCode: 1),
        Case(text: "  +49 (0)30 123456 ", region: nil, e164: "+4930123456", countryCallingCode: 49),
        Case(text: "030/123456", region: "DE", e164: "+4930123456", countryCallingCode: 49),
        // Full-width digits and plus sign, as some input methods type them.
        Case(text: "＋４９ ３０ １２３４５６", region: nil, e164: "+4930123456", countryCallingCode: 49),
    ]

    @Test("numbers in international form", arguments: international)
    func internationalForm(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test("numbers in national form, read in their default region", arguments: national)
    func nationalForm(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test("spaces, dashes, dots, slashes and parentheses between the digits", arguments: separators)
    func separatorsIgnored(_ testCase: Case) throws {
        try check(testCase)
    }

    @Test("two spellings of one number are equal after normalization")
    func spellingsCompareEqual() throws {
        let international = try PhoneNumber(parsing: "+1 201-555-0123")
        let national = try PhoneNumber(parsing: "(201) 555.0123", defaultRegion: "US")
        #expect(international == national)
        #expect(Set([international, national]).count == 1)
        #expect(try PhoneNumber(parsing: "+49 30 123456") == PhoneNumber(parsing: "030-123456", defaultRegion: "DE"))
        #expect(try PhoneNumber(parsing: "+49 30 123456") != PhoneNumber(parsing: "+49 30 123457"))
    }

    /// Tests/Fuzz/Regressions/FuzzPhoneNumber/mexican-national-prefix-after-country-code:
    /// libphonenumber formats this as +5215551202000, which it then parses as +525551202000.
    @Test(
        "the E.164 form is a fixed point: it parses back to itself",
        arguments: [("00520115551202000", "DE"), ("+52 01 1 55 5120 2000", nil), ("+52 1 55 5120 2000", nil), ("+52 55 5120 2000", nil)]
            as [(String, String?)])
    func fixedPoint(_ text: String, region: String?) throws {
        let number = try PhoneNumber(parsing: text, defaultRegion: region)
        #expect(number.e164 == "+525551202000")
        #expect(try PhoneNumber(parsing: number.e164).e164 == number.e164)
    }

    @Test("the description is the E.164 form")
    func description() throws {
        let number = try PhoneNumber(parsing: "(201) 555-0123", defaultRegion: "US")
        #expect(number.description == "+12015550123")
        #expect("\(number)" == "+12015550123")
    }

    @Test("parsing from many tasks at once gives the same results")
    func concurrentParsing() async throws {
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let testCase = Self.national[index % Self.national.count]
                    return try PhoneNumber(parsing: testCase.text, defaultRegion: testCase.region).e164
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(results) == Set(Self.national.map(\.e164)))
    }

    func check(_ testCase: Case) throws {
        let number = try PhoneNumber(parsing: testCase.text, defaultRegion: testCase.region)
        #expect(number.e164 == testCase.e164)
        #expect(number.countryCallingCode == testCase.countryCallingCode)
    }
}
