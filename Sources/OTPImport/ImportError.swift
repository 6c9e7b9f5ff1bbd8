internal import OTPCore

/// Why an export could not be read at all.
///
/// Entries that cannot be imported do not throw: they are reported in ``ImportResult/skipped``.
/// No case carries secret material, and no message quotes a value of the file.
public enum ImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// ``ImportFormat/detect(_:)`` recognized none of the formats.
    case unrecognizedFormat
    /// The export is encrypted and no password was given.
    case passwordRequired(ImportFormat)
    /// The password does not decrypt the export. An andOTP backup has nothing to tell a wrong
    /// password from a damaged file by, so for it this may also mean damage.
    case wrongPassword(ImportFormat)
    /// The password is right (it opened a key slot or 2FAS's reference), but the encrypted
    /// accounts fail authentication: the file was damaged or modified.
    case damaged(ImportFormat)
    /// The export declares a version newer than this importer knows (an Aegis vault or database
    /// version, a 2FAS schema version), whose meaning may have changed.
    case unsupportedVersion(ImportFormat, version: Int)
    /// The export is not valid JSON or not this format's structure; `reason` names the place.
    case malformed(ImportFormat, reason: String)

    /// A one-line message saying what was wrong, fit to show a user.
    public var description: String {
        switch self {
        case .unrecognizedFormat:
            "the file is not an Aegis vault, a 2FAS or andOTP backup, an otpauth:// URI list or a Google Authenticator export: choose the format explicitly if it is one"
        case .passwordRequired(let format):
            "the \(format) is encrypted: give its password (--password-file)"
        case .wrongPassword(let format):
            "the password does not decrypt this \(format): check it"
        case .damaged(let format):
            "the \(format) is damaged or was modified: the password is right, but its accounts fail authentication"
        case .unsupportedVersion(let format, let version):
            "the \(format) has version \(version), newer than this importer reads"
        case .malformed(let format, let reason):
            "not a valid \(format): \(reason)"
        }
    }

    /// Keeps messages one short line even when an export holds a huge or multi-line name.
    static func abbreviated(_ text: String) -> String {
        quotedInMessage(text, maximumScalars: 60)
    }
}
