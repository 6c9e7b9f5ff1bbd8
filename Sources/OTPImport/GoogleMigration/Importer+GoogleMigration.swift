extension Importer {
    /// Reads Google Authenticator migration URIs given one by one, such as the texts of QR codes
    /// scanned from several images (a text file of them goes to
    /// ``importAccounts(from:format:password:)`` instead).
    ///
    /// The same code given twice counts once. A text that is not a readable migration URI is
    /// reported in ``ImportResult/skipped`` at ``SkippedEntry/Position/entry(_:)`` (its place in
    /// `uris`, counted from 1) and the others imported. Codes missing from an export batch are
    /// reported in ``ImportResult/missingBatchParts``; the accounts of the others are imported.
    /// - Parameter uris: `otpauth-migration://offline?data=…` texts, one QR code each; surrounding
    ///   whitespace is ignored.
    /// - Returns: the accounts in the order of the codes and their payloads, the entries left out,
    ///   the codes read (``ImportResult/migrationCodes``) and the missing ones.
    /// - Throws: ``ImportError/malformed(_:reason:)`` for ``ImportFormat/googleAuthenticator``
    ///   when no text is a readable migration URI (or `uris` is empty).
    public static func importGoogleMigration(uris: [String]) throws(ImportError) -> ImportResult {
        try GoogleMigrationImporter.read(uris: uris)
    }
}
