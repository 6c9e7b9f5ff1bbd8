import OTPPhoneNumber
import Testing

/// The masked form hints show: `+`, the country calling code and the last four digits.
@Suite("Masked phone numbers")
struct MaskingTests {
    @Test(
        "keeps the country calling code and the last four digits",
        arguments: [
            ("+1 201 555 0123", "+1******0123"),
            ("+49 30 123456", "+49****3456"),
            ("+49 1512 3456789", "+49*******6789"),
            ("+44 7400 123456", "+44******3456"),
            ("+44 121 234 5678", "+44******5678"),
            ("+33 6 12 34 56 78", "+33*****5678"),
        ])
    func masked(_ text: String, _ expected: String) throws {
        let number = try PhoneNumber(parsing: text)
        #expect(number.masked == expected)
        #expect(number.masked.count == number.e164.count)
    }

    @Test(
        "short national numbers keep only their last half",
        arguments: [
            ("+683 7012", "+683**12"),
            ("+290 51234", "+290***34"),
            ("+4930123", "+49***23"),
        ])
    func shortNumbers(_ text: String, _ expected: String) throws {
        #expect(try PhoneNumber(parsing: text).masked == expected)
    }
}
