import OTPPhoneNumber
import OTPTestUtilities
import Testing

/// Checks OTPPhoneNumber against Python's `phonenumbers` (Debian's python3-phonenumbers), a port
/// of libphonenumber nobody here wrote: the same verdict and E.164 form for numbers of many
/// regions, valid and not. The script prints the library's own verdicts (parse error, validation
/// reason, E.164) so that the mapping to ``PhoneNumberError`` is checked too, not copied.
@Suite("Cross-check of phone numbers with Python phonenumbers")
struct PythonCrossCheckTests {
    static let script = """
        import sys
        import phonenumbers
        from phonenumbers import NumberParseException, PhoneNumberFormat, ValidationResult

        parse_errors = {0: "INVALID_COUNTRY_CODE", 1: "NOT_A_NUMBER", 2: "TOO_SHORT_AFTER_IDD", 3: "TOO_SHORT_NSN", 4: "TOO_LONG"}
        reasons = {value: name for name, value in vars(ValidationResult).items() if name.isupper()}
        print(phonenumbers.__version__)
        for line in sys.stdin:
            text, region = line.rstrip("\\n").split("\\t")
            region = None if region == "-" else region
            if region is not None and phonenumbers.country_code_for_region(region) == 0:
                print("unknown-region")
                continue
            try:
                number = phonenumbers.parse(text, region)
            except NumberParseException as error:
                print("parse", parse_errors[error.error_type])
                continue
            if phonenumbers.is_valid_number(number):
                print("valid", phonenumbers.format_number(number, PhoneNumberFormat.E164), "extension" if number.extension else "-")
            else:
                print("invalid", reasons[phonenumbers.is_possible_number_with_reason(number)])
        """

    /// Text and default region ("-" for none).
    static let inputs: [(String, String)] = [
        ("+12015550123", "-"), ("+1 201-555-0123", "-"), ("(201) 555-0123", "US"), ("201.555.0123", "US"),
        ("1-201-555-0123", "US"), ("+1 (201) 555.0123", "DE"), ("011 1 201 555 0123", "US"), ("030 123456", "DE"),
        ("+49 30 123456", "-"), ("0049 30 123456", "DE"), ("01512 3456789", "DE"), ("+49 (0)30 123456", "-"),
        ("07400 123456", "GB"), ("+44 7400 123456", "-"), ("0121 234 5678", "GB"), ("06 12 34 56 78", "FR"),
        ("+33 6 12 34 56 78", "-"), ("312 345 6789", "IT"), ("02 1234 5678", "IT"), ("090-1234-5678", "JP"),
        ("081234 56789", "IN"), ("(11) 96123-4567", "BR"), ("0412 345 678", "AU"), ("078 123 45 67", "CH"),
        ("131 2345 6789", "CN"), ("8 (912) 345-67-89", "RU"), ("071 123 4567", "ZA"), ("010-2000-0000", "KR"),
        ("+6837012", "-"), ("+29051234", "-"), ("+1 800 FLOWERS", "-"), ("+86 10 1234 5678", "-"),
        ("+7 912 345-67-89", "-"), ("＋４９ ３０ １２３４５６", "-"), ("+4930123", "-"), ("00 800 1234 5678", "DE"),
        ("+999 123", "-"), ("+999 1234567890", "-"), ("+1 201", "-"), ("+1 201 555 01234567", "-"),
        ("+49 1234567890123456789", "-"), ("+49 30", "-"), ("abc", "-"), ("hello", "US"), ("+", "-"), ("12", "US"),
        ("0049", "DE"), ("011", "US"), ("2015550123", "-"), ("555-0123", "US"), ("+1 555 555 4444", "-"),
        ("+44 1632 960000", "-"), ("+12015550123 ext. 5", "-"), ("030 123456 x 12", "DE"), ("+49 30 123456", "XX"),
        ("+1 201 555 012", "-"), ("+49 3", "-"), ("+47 406 123", "-"), ("+44 7400 1234", "-"), ("+33 6 1234 567", "-"),
        ("+00 1234", "-"), ("+46 70 123 45 67", "-"), ("+65 8123 4567", "-"), ("+852 5123 4567", "-"),
    ]

    @Test("the same verdicts and E.164 forms as Python phonenumbers")
    func sameVerdicts() async throws {
        let input = Self.inputs.map { "\($0.0)\t\($0.1)\n" }.joined()
        let run = try await ProcessRunner.run(ExternalTool.debianPython3.path(), ["-c", Self.script], input: input)
        try #require(
            run.status == 0,
            "python3 with the phonenumbers package failed: install the Debian package python3-phonenumbers (`bash .ci/install` or `bash Tests/test.sh` does): \(run.stderr)"
        )
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let version = lines.first ?? "?"
        let verdicts = lines.dropFirst()
        try #require(verdicts.count == Self.inputs.count, "python printed \(verdicts.count) verdicts for \(Self.inputs.count) inputs: \(run)")

        var valid = 0
        for ((text, region), line) in zip(Self.inputs, verdicts) {
            let expected = Self.verdict(python: line)
            let actual = Self.verdict(text, region: region == "-" ? nil : region)
            #expect(actual == expected, "\(text.debugDescription) in \(region): Python phonenumbers \(version) says \(line)")
            if expected.hasPrefix("valid ") { valid += 1 }
        }
        // Both kinds well represented, so neither half of the comparison is vacuous.
        #expect(valid >= 25 && Self.inputs.count - valid >= 25, "\(valid) of \(Self.inputs.count) inputs valid")
    }

    /// Our verdict, in the words `verdict(python:)` maps Python's to.
    static func verdict(_ text: String, region: String?) -> String {
        do {
            return "valid \(try PhoneNumber(parsing: text, defaultRegion: region).e164)"
        } catch {
            switch error {
            // libphonenumber reports both as one parse error; OTPPhoneNumber tells them apart.
            case .missingCountryCode, .invalidCountryCode: return "countryCode"
            default: return "\(error)"
            }
        }
    }

    /// Python's verdict line (`valid +4930123456 -`, `parse TOO_LONG`, `invalid TOO_SHORT`) in
    /// our words: the description of the ``PhoneNumberError`` it stands for.
    static func verdict(python line: Substring) -> String {
        let words = line.split(separator: " ").map(String.init)
        switch (words.first ?? "", words.dropFirst().first ?? "") {
        case ("valid", let e164): return words.last == "extension" ? "\(PhoneNumberError.hasExtension)" : "valid \(e164)"
        case ("unknown-region", _): return "\(PhoneNumberError.unknownRegion)"
        case ("parse", "INVALID_COUNTRY_CODE"), ("invalid", "INVALID_COUNTRY_CODE"): return "countryCode"
        case ("parse", "NOT_A_NUMBER"): return "\(PhoneNumberError.notANumber)"
        case ("parse", "TOO_SHORT_AFTER_IDD"): return "\(PhoneNumberError.tooShortAfterInternationalPrefix)"
        case ("parse", "TOO_SHORT_NSN"), ("invalid", "TOO_SHORT"), ("invalid", "IS_POSSIBLE_LOCAL_ONLY"):
            return "\(PhoneNumberError.tooShort)"
        case ("parse", "TOO_LONG"), ("invalid", "TOO_LONG"): return "\(PhoneNumberError.tooLong)"
        case ("invalid", "INVALID_LENGTH"): return "\(PhoneNumberError.invalidLength)"
        case ("invalid", "IS_POSSIBLE"): return "\(PhoneNumberError.invalidNumber)"
        default: return "unexpected Python verdict \(line)"
        }
    }
}
