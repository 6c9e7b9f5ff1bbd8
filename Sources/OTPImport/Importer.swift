public import Foundation

/// Reads the accounts of another authenticator's export.
///
/// Plain (unencrypted) exports only for now: an encrypted one throws
/// ``ImportError/encryptedNotSupported(_:)``.
public enum Importer {
    /// Reads the accounts of an export.
    ///
    /// - Parameter data: The export file's bytes.
    /// - Parameter format: The format, or `nil` to detect it with ``ImportFormat/detect(_:)``.
    /// - Returns: the accounts in the export's order, and the entries left out with why (Steam,
    ///   mOTP, unsupported algorithms, bad lines of a URI list or of a Google Authenticator export;
    ///   for the latter also its codes and the missing ones of each batch).
    /// - Throws: an ``ImportError`` when the file as a whole cannot be read.
    public static func importAccounts(from data: Data, format: ImportFormat? = nil) throws(ImportError) -> ImportResult {
        let chosen: ImportFormat
        if let format {
            chosen = format
        } else {
            chosen = try ImportFormat.detect(data)
        }
        switch chosen {
        case .aegis:
            return try AegisImporter.read(data)
        case .twoFAS:
            return try TwoFASImporter.read(data)
        case .andOTP:
            return try AndOTPImporter.read(data)
        case .uriList:
            guard let text = TextDecoding.string(from: data) else {
                throw .malformed(.uriList, reason: "the file is not UTF-8 text")
            }
            return URIListImporter.read(text)
        case .googleAuthenticator:
            guard let text = TextDecoding.string(from: data) else {
                throw .malformed(.googleAuthenticator, reason: "the file is not UTF-8 text")
            }
            return try GoogleMigrationImporter.read(text)
        }
    }
}
