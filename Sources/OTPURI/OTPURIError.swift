public import OTPCore

/// An error thrown when an otpauth:// URI cannot be parsed, or a key URI model cannot be built.
///
/// Every case names the part of the URI that was wrong. No case carries secret material: a bad
/// secret is reported through the `OTPError` of its Base32 decoding, which names only
/// the offending character and its offset.
public enum OTPURIError: Error, Hashable, Sendable {
    /// A part of a URI, as named in error messages.
    public enum Component: Hashable, Sendable, CustomStringConvertible {
        /// The label (`issuer:account` between `otpauth://TYPE/` and `?`).
        case label
        /// The name of a query parameter.
        case parameterName
        /// The value of the query parameter with this name.
        case parameter(String)

        /// A one-line message saying what was wrong, fit to show a user.

        public var description: String {
            switch self {
            case .label: "label"
            case .parameterName: "parameter name"
            case .parameter(let name): "'\(OTPURIError.abbreviated(name))' parameter"
            }
        }
    }

    /// The text does not start with `otpauth://`.
    case invalidScheme
    /// The type after `otpauth://` is neither `totp` nor `hotp`.
    case invalidType(String)
    /// Strict parsing: the label has no account name.
    case missingAccountName
    /// Strict parsing: the label has more than one unescaped colon, so issuer and account are ambiguous.
    case ambiguousLabel
    /// Strict parsing: a `%` is not followed by two hexadecimal digits. `offset` counts Unicode
    /// scalars from the start of the URI.
    case malformedPercentEncoding(Component, offset: Int)
    /// Strict parsing: percent-escapes decode to bytes that are not UTF-8.
    case invalidUTF8(Component)
    /// Strict parsing: a query parameter has no `=`.
    case malformedParameter(String)
    /// Strict parsing: a query parameter appears more than once.
    case duplicateParameter(String)
    /// The `secret` parameter is missing.
    case missingSecret
    /// The `secret` parameter is empty.
    case emptySecret
    /// The `secret` parameter is not usable Base32, or decodes to too few bytes.
    case invalidSecret(OTPError)
    /// The `algorithm` parameter names no supported algorithm (strict: not exactly `SHA1`,
    /// `SHA256` or `SHA512`).
    case unknownAlgorithm(String)
    /// The `digits` parameter is not a number from 6 to 10.
    case invalidDigits(String)
    /// The `period` parameter is not a positive number of seconds.
    case invalidPeriod(String)
    /// The `counter` parameter is not an unsigned 64-bit number.
    case invalidCounter(String)
    /// Strict parsing (or building an HOTP model): an `hotp` URI without a `counter` parameter.
    case missingCounter
    /// Strict parsing: the issuer prefix of the label and the `issuer` parameter differ.
    case issuerMismatch(label: String, parameter: String)
    /// An additional parameter's name is a defined parameter's name in another letter case
    /// (`Secret`, `ISSUER`), which lenient parsers would read as the defined one.
    case reservedParameterName(String)
}

extension OTPURIError: CustomStringConvertible {
    /// A one-line message saying what was wrong, fit to show a user.
    public var description: String {
        switch self {
        case .invalidScheme:
            "not an otpauth:// URI: it must start with otpauth://totp/ or otpauth://hotp/"
        case .invalidType(let type):
            "invalid OTP type '\(Self.abbreviated(type))': use totp or hotp"
        case .missingAccountName:
            "the label has no account name: use otpauth://totp/Issuer:account?..."
        case .ambiguousLabel:
            "the label has more than one ':': escape colons inside the issuer or account as %3A"
        case .malformedPercentEncoding(let component, let offset):
            "malformed percent-escape in the \(component) at offset \(offset): '%' must be followed by two hex digits (write a literal % as %25)"
        case .invalidUTF8(let component):
            "the \(component) decodes to bytes that are not UTF-8"
        case .malformedParameter(let name):
            "parameter '\(Self.abbreviated(name))' has no '=': write name=value"
        case .duplicateParameter(let name):
            "parameter '\(Self.abbreviated(name))' appears more than once"
        case .missingSecret:
            "the URI has no secret parameter"
        case .emptySecret:
            "the secret parameter is empty"
        case .invalidSecret(let error):
            "invalid secret parameter: \(error)"
        case .unknownAlgorithm(let name):
            "unknown algorithm '\(Self.abbreviated(name))': use \(OTPAlgorithm.names())"
        case .invalidDigits(let value):
            "invalid digits '\(Self.abbreviated(value))': use a number from \(HOTP.digitRange.lowerBound) to \(HOTP.digitRange.upperBound)"
        case .invalidPeriod(let value):
            "invalid period '\(Self.abbreviated(value))': use a positive number of seconds"
        case .invalidCounter(let value):
            "invalid counter '\(Self.abbreviated(value))': use a number from 0 to 18446744073709551615"
        case .missingCounter:
            "an hotp URI needs a counter parameter"
        case .reservedParameterName(let name):
            "parameter '\(Self.abbreviated(name))' differs from the defined '\(name.lowercased())' only in letter case: write '\(name.lowercased())'"
        case .issuerMismatch(let label, let parameter):
            "the label's issuer '\(Self.abbreviated(label))' differs from the issuer parameter '\(Self.abbreviated(parameter))'"
        }
    }

    /// Keeps error messages one short line even when a URI carries a huge or multi-line value.
    static func abbreviated(_ text: String) -> String {
        quotedInMessage(text, maximumScalars: 40)
    }
}
