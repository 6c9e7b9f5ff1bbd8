/// Why a text is not a readable Google Authenticator migration URI
/// (`otpauth-migration://offline?data=…`).
///
/// Reported for each such line in ``ImportResult/skipped`` as ``SkipReason/invalidMigrationURI(_:)``.
/// No case carries any part of the URI: its data holds secrets.
public enum MigrationURIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text does not start with `otpauth-migration://offline`.
    case notMigrationURI
    /// The URI has no `data` query parameter.
    case missingData
    /// The `data` parameter has a `%` not followed by two hexadecimal digits.
    case invalidPercentEncoding
    /// The `data` parameter, percent-decoded, is not standard Base64.
    case invalidBase64
    /// The decoded bytes are not a protobuf `MigrationPayload`.
    case invalidPayload
    /// The payload holds no accounts.
    case noAccounts
    /// The payload says it is code `index` (from 0) of a batch of `size`, which no export is: a
    /// size past 1,000 codes or an index outside the batch.
    case invalidBatch(size: Int, index: Int)

    /// A one-line message saying what was wrong and what to do, fit to show a user.
    public var description: String {
        switch self {
        case .notMigrationURI:
            "not an otpauth-migration://offline URI: give one URI from a Google Authenticator export a line"
        case .missingData:
            "the otpauth-migration URI has no data parameter: copy or scan the whole text of the QR code"
        case .invalidPercentEncoding:
            "the data parameter has a '%' without two hexadecimal digits after it: copy or scan the QR code's text again"
        case .invalidBase64:
            "the data parameter is not Base64: copy or scan the QR code's text again"
        case .invalidPayload:
            "the data is not a Google Authenticator migration payload: copy or scan the QR code's text again"
        case .noAccounts:
            "the otpauth-migration URI holds no accounts: export the accounts from Google Authenticator again"
        case .invalidBatch(let size, let index):
            "the otpauth-migration URI says it is code \(index + 1) of \(size), which no export is: export the accounts from Google Authenticator again"
        }
    }
}
