public import OTPCore

/// A key URI in Google's Key Uri Format: `otpauth://TYPE/ISSUER:ACCOUNT?secret=…&issuer=…`.
///
/// Build one to enroll a user (``string`` is what goes into the QR code), or parse one that an
/// authenticator exported or a service showed with ``init(parsing:mode:)``. Parameters the format
/// does not define (`image`, `lock`, …) are kept in ``additionalParameters`` in their order, so
/// parsing and formatting again loses nothing.
public struct OTPAuthURI: Equatable, Sendable {
    /// Whether codes come from the time (TOTP) or from a counter (HOTP).
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// Time-based one-time passwords, RFC 6238.
        case totp
        /// Counter-based one-time passwords, RFC 4226.
        case hotp
    }

    /// How forgiving ``OTPAuthURI/init(parsing:mode:)`` is.
    public enum ParsingMode: Hashable, Sendable {
        /// Accepts what real services and apps produce: `%3A` or `:` plus spaces between issuer and
        /// account, issuer only in the label or only as a parameter (the parameter wins when they
        /// differ), `+` for space in parameters, any case for the type, parameter names and
        /// algorithm, secrets with lowercase letters, spaces or padding, malformed percent-escapes
        /// kept literally, repeated parameters (the first counts) and an hotp URI without a counter
        /// (counter 0).
        case lenient
        /// Accepts only well-formed URIs: see ``OTPURIError`` for what it rejects.
        case strict
    }

    /// A query parameter the key URI format does not define, kept with its decoded name and value.
    public struct Parameter: Hashable, Sendable {
        /// The decoded parameter name.
        public var name: String
        /// The decoded parameter value.
        public var value: String

        /// Creates a parameter.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// TOTP or HOTP.
    public let kind: Kind
    /// The provider or service the account belongs to, shown by authenticator apps; `nil` when
    /// neither the label nor the parameters name one. Never empty.
    public let issuer: String?
    /// The account, usually a user name or an email address. When the label has a separator (there
    /// is an issuer, or the account holds a colon) it does not start with a space: the format uses
    /// spaces after the separator as padding.
    public let accountName: String
    /// The shared secret.
    public let secret: OTPSecret
    /// The HMAC hash function.
    public let algorithm: OTPAlgorithm
    /// The number of digits of a code, 6 to 10.
    public let digits: Int
    /// The time step in seconds (TOTP); kept for HOTP too, where only a non-default value is written.
    public let period: Int64
    /// The counter of an HOTP key; `nil` for TOTP.
    public let counter: UInt64?
    /// Parameters the format does not define, in their order.
    public let additionalParameters: [Parameter]

    /// The time step apps assume when a URI has no `period`.
    public static let defaultPeriod: Int64 = 30
    /// The number of digits apps assume when a URI has no `digits`.
    public static let defaultDigits = 6

    /// Creates a key URI model.
    ///
    /// An empty issuer counts as none. When the label has a separator (there is an issuer, or the
    /// account name holds a colon, which the formatter protects with an empty issuer prefix),
    /// leading spaces are removed from the account name, as a parser would remove them.
    /// - Throws: ``OTPURIError/invalidDigits(_:)`` outside 6...10, ``OTPURIError/invalidPeriod(_:)``
    ///   for a period below 1 second, ``OTPURIError/missingCounter`` for HOTP without a counter,
    ///   ``OTPURIError/reservedParameterName(_:)`` for an additional parameter named like a defined
    ///   one in another letter case.
    public init(
        kind: Kind = .totp,
        issuer: String?,
        accountName: String,
        secret: OTPSecret,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = OTPAuthURI.defaultDigits,
        period: Int64 = OTPAuthURI.defaultPeriod,
        counter: UInt64? = nil,
        additionalParameters: [Parameter] = []
    ) throws(OTPURIError) {
        guard HOTP.digitRange.contains(digits) else { throw .invalidDigits(String(digits)) }
        guard period >= 1 else { throw .invalidPeriod(String(period)) }
        if kind == .hotp && counter == nil { throw .missingCounter }
        for parameter in additionalParameters where Self.isReserved(parameter.name, kind: kind) {
            throw .reservedParameterName(parameter.name)
        }
        let issuer = issuer.flatMap { $0.isEmpty ? nil : $0 }
        self.kind = kind
        self.issuer = issuer
        self.accountName =
            Self.labelHasSeparator(issuer: issuer, accountName: accountName)
            ? Self.trimmingLeadingSpaces(accountName) : accountName
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.counter = kind == .totp ? nil : counter
        self.additionalParameters = additionalParameters
    }

    /// Whether a parser would read a parameter of this name as a defined one. `counter` is not
    /// defined for TOTP, so a TOTP URI may carry it as an additional parameter.
    static func isReserved(_ name: String, kind: Kind) -> Bool {
        guard (6...9).contains(name.utf8.count) else { return false }
        switch name.lowercased() {
        case "secret", "issuer", "algorithm", "digits", "period": return true
        case "counter": return kind == .hotp
        default: return false
        }
    }

    /// Whether the formatted label holds a literal colon: after an issuer, or as the empty issuer
    /// prefix an account name with a colon of its own gets. Bytes, not Characters: a colon followed
    /// by a combining mark is one Character, and still a colon to a parser.
    static func labelHasSeparator(issuer: String?, accountName: String) -> Bool {
        issuer != nil || accountName.utf8.contains(UInt8(ascii: ":"))
    }

    private static func trimmingLeadingSpaces(_ text: String) -> String {
        guard text.utf8.first == UInt8(ascii: " ") else { return text }
        // Scalars, not Characters: a space followed by a combining mark is one Character, yet
        // parsers drop the space byte before it.
        return String(text.unicodeScalars.drop { $0 == " " })
    }
}
