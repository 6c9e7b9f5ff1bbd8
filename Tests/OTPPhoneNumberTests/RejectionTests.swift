import OTPPhoneNumber
import Testing

/// Texts that are not numbers a code can be sent to, each refused with its own error, whose
/// message says what to fix without repeating the number.
@Suite("Rejected phone numbers")
struct RejectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let region: String?
        let error: PhoneNumberError
        var testDescription: String { "\(text.debugDescription) in \(region ?? "no region")" }
    }

    static let cases: [Case] = [
        Case(text: "", region: nil, error: .empty),
        Case(text: "   ", region: "US", error: .empty),
        Case(text: "+49 30 123456", region: "XX", error: .unknownRegion),
        Case(text: "030 123456", region: "DEU", error: .unknownRegion),
        Case(text: "030 123456", region: "ß", error: .unknownRegion),
        Case(text: "030 123456", region: "", error: .unknownRegion),
        Case(text: "2015550123", region: nil, error: .missingCountryCode),
        Case(text: "(201) 555-0123", region: nil, error: .missingCountryCode),
        Case(text: "+999 123", region: nil, error: .invalidCountryCode),
        Case(text: "+999 1234567890", region: "US", error: .invalidCountryCode),
        Case(text: "abc", region: nil, error: .notANumber),
        Case(text: "hello", region: "US", error: .notANumber),
        Case(text: "+", region: nil, error: .notANumber),
        Case(text: "0049", region: "DE", error: .tooShortAfterInternationalPrefix),
        Case(text: "011", region: "US", error: .tooShortAfterInternationalPrefix),
        Case(text: "+1 201", region: nil, error: .tooShort),
        Case(text: "+1 201 555 012", region: nil, error: .tooShort),
        Case(text: "12", region: "US", error: .tooShort),
        Case(text: "+49 3", region: nil, error: .tooShort),
        // A local number without its area code.
        Case(text: "555-0123", region: "US", error: .tooShort),
        Case(text: "+1 201 555 01234567", region: nil, error: .tooLong),
        Case(text: "+49 1234567890123456789", region: nil, error: .tooLong),
        Case(text: "+47 406 123", region: nil, error: .invalidLength),
        // 555 is no area code; 01632 960 is the range the United Kingdom keeps for drama.
        Case(text: "+1 555 555 4444", region: nil, error: .invalidNumber),
        Case(text: "+44 1632 960000", region: nil, error: .invalidNumber),
        Case(text: "+1 201 555 0123 ext. 5", region: nil, error: .hasExtension),
        Case(text: "030 123456 x 12", region: "DE", error: .hasExtension),
    ]

    @Test("each kind of mistake has its own error", arguments: cases)
    func rejected(_ testCase: Case) {
        let error = #expect(throws: PhoneNumberError.self) {
            try PhoneNumber(parsing: testCase.text, defaultRegion: testCase.region)
        }
        #expect(error == testCase.error)
    }

    @Test("messages name the mistake, not the number", arguments: cases)
    func messageNeverRepeatsTheNumber(_ testCase: Case) throws {
        let error = try #require(throws: PhoneNumberError.self) {
            try PhoneNumber(parsing: testCase.text, defaultRegion: testCase.region)
        }
        let digits = testCase.text.filter(\.isNumber)
        // Short runs such as "00" or "011" also appear in the advice itself.
        if digits.count > 3 { #expect(!error.description.contains(digits)) }
        #expect(!error.description.isEmpty)
        #expect(error.serverCode == "INVALID_PHONE_NUMBER")
    }

    @Test("a missing country calling code says how to write one")
    func missingCountryCodeMessage() {
        #expect(
            PhoneNumberError.missingCountryCode.description
                == "the number has no country calling code: write it in international form, +<country code><number>, or give a default region")
    }
}
