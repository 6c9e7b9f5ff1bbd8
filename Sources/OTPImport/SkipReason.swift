import OTPCore
public import OTPURI

/// Why an entry of an export was left out.
public enum SkipReason: Hashable, Sendable, CustomStringConvertible {
    /// A Steam Guard entry: 5 characters from Steam's own alphabet, which a TOTP generator would
    /// turn into wrong 6-digit codes, so it is never imported as TOTP.
    case steam
    /// A mobile-OTP (mOTP) entry: MD5 of a PIN and the time, not HOTP or TOTP.
    case mOTP
    /// Another OTP type OTPKit does not generate (Yandex, …), as the export names it.
    case unsupportedType(String)
    /// An algorithm other than SHA1, SHA256 or SHA512, as the export names it.
    case unsupportedAlgorithm(String)
    /// A line of a URI list that is not a usable otpauth:// URI.
    case invalidURI(OTPURIError)
    /// An entry whose fields do not make an account (a bad secret, digits out of range, …).
    case invalidEntry(String)
    /// A line (or a text given to ``Importer/importGoogleMigration(uris:)``) that is not a readable
    /// Google Authenticator migration URI.
    case invalidMigrationURI(MigrationURIError)
    /// An account ``GoogleMigrationExport`` left out because the format cannot carry it (a period
    /// other than 30 seconds, digits other than 6 or 8); the text says which field.
    case notExportable(String)

    /// A one-line message saying why, fit to show a user; it never contains the secret.
    public var description: String {
        switch self {
        case .steam: "Steam Guard codes are not supported"
        case .mOTP: "mOTP codes are not supported"
        case .unsupportedType(let type): "the OTP type '\(ImportError.abbreviated(type))' is not supported"
        case .unsupportedAlgorithm(let name):
            "the algorithm '\(ImportError.abbreviated(name))' is not supported: OTPKit uses \(OTPAlgorithm.names())"
        case .invalidURI(let error): "\(error)"
        case .invalidEntry(let reason): reason
        case .invalidMigrationURI(let error): "\(error)"
        case .notExportable(let reason): "not exportable to Google Authenticator: \(reason)"
        }
    }
}
