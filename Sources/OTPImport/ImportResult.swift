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

    /// Creates a result.
    public init(accounts: [OTPAuthURI] = [], skipped: [SkippedEntry] = []) {
        self.accounts = accounts
        self.skipped = skipped
    }
}
