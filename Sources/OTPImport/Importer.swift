public import Foundation
public import OTPVault

/// Reads the accounts of another authenticator's export.
///
/// Encrypted exports (Aegis vaults, 2FAS and andOTP backups) are read with their password.
public enum Importer {
    /// Reads the accounts of an export.
    ///
    /// - Parameter data: The export file's bytes.
    /// - Parameter format: The format, or `nil` to detect it with ``ImportFormat/detect(_:)``.
    /// - Parameter password: The export's password when it is encrypted; ignored for a plain one.
    /// - Returns: the accounts in the export's order, and the entries left out with why (Steam,
    ///   mOTP, unsupported algorithms, bad lines of a URI list or of a Google Authenticator export;
    ///   for the latter also its codes and the missing ones of each batch).
    /// - Throws: an ``ImportError`` when the file as a whole cannot be read:
    ///   ``ImportError/passwordRequired(_:)`` for an encrypted export without a password,
    ///   ``ImportError/wrongPassword(_:)`` or ``ImportError/damaged(_:)`` when it does not decrypt.
    public static func importAccounts(
        from data: Data,
        format: ImportFormat? = nil,
        password: VaultPassphrase? = nil
    ) throws(ImportError) -> ImportResult {
        let chosen: ImportFormat
        if let format {
            chosen = format
        } else {
            chosen = try ImportFormat.detect(data)
        }
        switch chosen {
        case .aegis:
            return try AegisImporter.read(data, password: password)
        case .twoFAS:
            return try TwoFASImporter.read(data, password: password)
        case .andOTP:
            return try AndOTPImporter.read(data, password: password)
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
