internal import ArgumentParser

/// The `--test-phone-number NUMBER=CODE` values: Firebase's fictional numbers, whose code is
/// fixed and to which no message is sent (Identity Platform's `testPhoneNumbers`).
enum TestPhoneNumberOption {
    static let valueHelp = "+15555550100=123456 (E.164 number, six-digit code)"

    /// The number → code map of `values`.
    ///
    /// - Throws: `ValidationError` naming the number (never the code) and the form to use.
    static func parse(_ values: [String]) throws(ValidationError) -> [String: String] {
        var numbers: [String: String] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw ValidationError("--test-phone-number takes \(valueHelp)") }
            let number = String(parts[0])
            let code = String(parts[1])
            guard number.wholeMatch(of: /\+[1-9][0-9]{6,14}/) != nil else {
                throw ValidationError("--test-phone-number \(number.prefix(20)): write the number in E.164 form, such as +15555550100 (no spaces)")
            }
            guard code.wholeMatch(of: /[0-9]{6}/) != nil else {
                throw ValidationError("--test-phone-number \(number): the code must be six digits, such as \(number)=123456")
            }
            guard numbers.updateValue(code, forKey: number) == nil else {
                throw ValidationError("--test-phone-number \(number) is given twice: give each number once")
            }
        }
        return numbers
    }
}
