/// One Google Authenticator migration code (one QR code, one `otpauth-migration://` URI) that an
/// import read, with its place in its export's batch.
///
/// A Google Authenticator export of many accounts is a batch of several codes, 10 accounts each,
/// sharing a random ``batchID``; ``batchIndex`` counts them from 0.
public struct MigrationCode: Hashable, Sendable {
    /// Where the code was: ``SkippedEntry/Position/line(_:)`` in a text file,
    /// ``SkippedEntry/Position/entry(_:)`` (counted from 1) among the texts given to
    /// ``Importer/importGoogleMigration(uris:)``.
    public let position: SkippedEntry.Position
    /// The payload's format version: 1 in Aegis's and older Google Authenticator exports, 2 in
    /// newer ones.
    public let version: Int
    /// The id shared by the codes of one export; 0 when the payload has none.
    public let batchID: Int32
    /// The number of codes in the export, as this code says; at least 1.
    public let batchSize: Int
    /// This code's place in the export, counted from 0.
    public let batchIndex: Int
    /// The number of accounts in this code, imported or skipped.
    public let accountCount: Int

    /// Creates a code's description.
    public init(position: SkippedEntry.Position, version: Int, batchID: Int32, batchSize: Int, batchIndex: Int, accountCount: Int) {
        self.position = position
        self.version = version
        self.batchID = batchID
        self.batchSize = batchSize
        self.batchIndex = batchIndex
        self.accountCount = accountCount
    }
}
