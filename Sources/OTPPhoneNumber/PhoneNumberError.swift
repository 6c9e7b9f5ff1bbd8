import CPhoneNumber

/// Why a text is not a phone number that can receive a code: one case per kind of mistake.
///
/// The ``description`` says what is wrong and how to fix it, and never repeats the number, so it
/// can go to logs and back to the person who typed it. Firebase reports every one of these as
/// `INVALID_PHONE_NUMBER` (``serverCode``).
public enum PhoneNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text was empty or only whitespace.
    case empty
    /// The default region is not an ISO 3166 alpha-2 code libphonenumber knows.
    case unknownRegion
    /// A number in national form, with no default region to read it in.
    case missingCountryCode
    /// The country calling code is not assigned to any country.
    case invalidCountryCode
    /// The text is not a phone number: too few digits, or symbols where digits belong.
    case notANumber
    /// An international prefix (such as 00 or 011) with too little after it.
    case tooShortAfterInternationalPrefix
    /// Fewer digits than any number of its country.
    case tooShort
    /// More digits than any number of its country.
    case tooLong
    /// A length between its country's shortest and longest numbers that no number has.
    case invalidLength
    /// A possible length, but not in a range its country assigns (an unused area code).
    case invalidNumber
    /// The number carries an extension, which a text message cannot reach.
    case hasExtension
    /// libphonenumber itself failed (it ran out of memory): no property of the number.
    case libraryFailure

    /// Firebase's error code for the case, as the service reports it: `INVALID_PHONE_NUMBER` for
    /// every mistake in the number, `INTERNAL_ERROR` when the library failed.
    public var serverCode: String { self == .libraryFailure ? "INTERNAL_ERROR" : "INVALID_PHONE_NUMBER" }

    public var description: String {
        switch self {
        case .empty:
            "no phone number was given: enter one in international form, +<country code><number>"
        case .unknownRegion:
            "the default region is not a known ISO 3166 two-letter region code: give one such as US or DE, or none for numbers in international form"
        case .missingCountryCode:
            "the number has no country calling code: write it in international form, +<country code><number>, or give a default region"
        case .invalidCountryCode:
            "the number's country calling code is not assigned to any country: check the digits after the + or the international prefix"
        case .notANumber:
            "the text is not a phone number: write its digits, with a leading + for the international form; spaces, dashes, dots and parentheses may separate them"
        case .tooShortAfterInternationalPrefix:
            "the number has too few digits after its international prefix (such as 00 or 011): write the whole number after it, or + instead of the prefix"
        case .tooShort:
            "the number has too few digits for its country: check for a missing digit or area code"
        case .tooLong:
            "the number has too many digits for its country: check for an extra digit"
        case .invalidLength:
            "the number's length matches no number of its country: check for a missing or extra digit"
        case .invalidNumber:
            "the number is not one its country assigns (no such area code or range): check the digits and the country calling code"
        case .hasExtension:
            "the number has an extension, which a text message cannot reach: give the number without it"
        case .libraryFailure:
            "the phone number library failed while reading the number (out of memory): try again"
        }
    }

    /// The error for a status of `cpn_parse`, or nil for success.
    init?(_ status: cpn_status) {
        switch status {
        case CPN_OK: return nil
        case CPN_UNKNOWN_REGION: self = .unknownRegion
        case CPN_MISSING_COUNTRY_CODE: self = .missingCountryCode
        case CPN_INVALID_COUNTRY_CODE: self = .invalidCountryCode
        case CPN_NOT_A_NUMBER: self = .notANumber
        case CPN_TOO_SHORT_AFTER_IDD: self = .tooShortAfterInternationalPrefix
        case CPN_TOO_SHORT: self = .tooShort
        case CPN_TOO_LONG: self = .tooLong
        case CPN_INVALID_LENGTH: self = .invalidLength
        case CPN_INVALID_NUMBER: self = .invalidNumber
        case CPN_HAS_EXTENSION: self = .hasExtension
        default: self = .libraryFailure
        }
    }
}
