import OTPPhoneNumber
import Testing

/// Inputs no person types, which reach the C++ code all the same: refused, never a crash.
@Suite("Hostile phone number input")
struct HostileInputTests {
    @Test(
        "refused with an error",
        arguments: [
            ("+" + String(repeating: "1", count: 10_000), PhoneNumberError.tooLong),
            ("+1 201\u{0} 555 0123", .notANumber),
            ("\u{0}", .notANumber),
            (String(repeating: "(", count: 1_000), .notANumber),
        ])
    func refused(_ text: String, _ expected: PhoneNumberError) {
        let error = #expect(throws: PhoneNumberError.self) { try PhoneNumber(parsing: text, defaultRegion: "US") }
        #expect(error == expected)
    }
}
