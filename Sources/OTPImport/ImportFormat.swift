public import Foundation

/// An export format ``Importer`` reads.
public enum ImportFormat: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// An Aegis vault (`aegis-backup-*.json`), vault version 1 with database versions 1 to 3.
    case aegis
    /// A 2FAS backup (`.2fas`), schema versions 1 to 4.
    case twoFAS = "2fas"
    /// An andOTP backup (`otp_accounts.json`).
    case andOTP = "andotp"
    /// A text file of `otpauth://` URIs, one a line.
    case uriList = "uri-list"
    /// A Google Authenticator export: text of `otpauth-migration://offline?data=…` URIs (the texts
    /// of its "Transfer accounts" QR codes), one a line.
    case googleAuthenticator = "google"

    /// The app or format name as a person knows it, for messages.
    public var description: String {
        switch self {
        case .aegis: "Aegis vault"
        case .twoFAS: "2FAS backup"
        case .andOTP: "andOTP backup"
        case .uriList: "otpauth:// URI list"
        case .googleAuthenticator: "Google Authenticator export"
        }
    }

    /// The format of an export, judged from its content rather than its file name, which people
    /// rename and which andOTP and Aegis share (`.json`).
    ///
    /// A JSON array is andOTP; a JSON object with `db` or `header` is Aegis, with `services` or
    /// `servicesEncrypted` 2FAS; text whose first line that is neither blank nor a `#` comment
    /// starts with `otpauth://` is a URI list, with `otpauth-migration://` a Google Authenticator export.
    /// - Throws: ``ImportError/unrecognizedFormat`` for anything else, including binary data such as
    ///   an encrypted andOTP backup, which has no magic bytes to recognize it by (choose
    ///   ``andOTP`` explicitly for it).
    public static func detect(_ data: Data) throws(ImportError) -> ImportFormat {
        guard let text = TextDecoding.string(from: data) else { throw .unrecognizedFormat }
        let start = text.unicodeScalars.first { !$0.properties.isWhitespace }
        switch start {
        case "[":
            return .andOTP
        case "{":
            guard let probe = try? JSONDecoder().decode(Probe.self, from: data) else { throw .unrecognizedFormat }
            if probe.db != nil || probe.header != nil { return .aegis }
            if probe.services != nil || probe.servicesEncrypted != nil { return .twoFAS }
            throw .unrecognizedFormat
        default:
            let firstLine = URIListImporter.contentLines(of: text).first?.text
            guard let firstLine else { throw .unrecognizedFormat }
            if MigrationURICoding.hasPrefix(firstLine) { return .googleAuthenticator }
            guard firstLine.lowercased().hasPrefix("otpauth://") else { throw .unrecognizedFormat }
            return .uriList
        }
    }

    /// The top-level keys that tell the JSON formats apart; their values are not decoded.
    private struct Probe: Decodable {
        let db: Ignored?
        let header: Ignored?
        let services: Ignored?
        let servicesEncrypted: Ignored?
    }

    /// Any JSON value, skipped.
    private struct Ignored: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
