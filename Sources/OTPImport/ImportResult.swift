public import OTPURI

/// What an import read: the accounts, in the file's order, and the entries it left out with why.
///
/// Leaving an entry out is not an error: an export with one Steam account among twenty still
/// imports the twenty, and the caller tells the person what was skipped.
public struct ImportResult: Equatable, Sendable {
    /// The accounts read, in the order of the export.
    public var accounts: [OTPAuthURI]
    /// The entries left out, in the order of the export.
    public var skipped: [SkippedEntry]
    /// The Google Authenticator migration codes read, one per distinct QR code, in the order read;
    /// empty for the other formats.
    public var migrationCodes: [MigrationCode]
    /// The codes of Google Authenticator export batches that were not among those read, one
    /// element per incomplete batch; empty for the other formats. The accounts of the codes that
    /// were read are imported all the same: the caller asks for the rest or accepts a partial import.
    public var missingBatchParts: [MissingBatchParts]

    /// Creates a result.
    public init(
        accounts: [OTPAuthURI] = [], skipped: [SkippedEntry] = [], migrationCodes: [MigrationCode] = [],
        missingBatchParts: [MissingBatchParts] = []
    ) {
        self.accounts = accounts
        self.skipped = skipped
        self.migrationCodes = migrationCodes
        self.missingBatchParts = missingBatchParts
    }
}
