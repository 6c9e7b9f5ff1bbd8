import Foundation

/// Reads a plain 2FAS backup (`.2fas`): `{"services": [...], "schemaVersion": 1...4, ...}`.
///
/// Follows Aegis's TwoFASImporter: the issuer is the service's name (what the 2FAS list shows),
/// schema 1 has no algorithm, digits or period (SHA1, 6, 30), and before schema 3 there is no
/// `tokenType`, so HOTP accounts of schema 2 files read as TOTP, as 2FAS itself wrote them.
enum TwoFASImporter {
    static let schemaVersions = 1...4

    static func read(_ data: Data) throws(ImportError) -> ImportResult {
        let backup = try JSONReading.decode(Backup.self, from: data, format: .twoFAS)
        if let version = backup.schemaVersion, version > schemaVersions.upperBound {
            throw .unsupportedVersion(.twoFAS, version: version)
        }
        // An encrypted backup keeps `services` empty and puts them in `servicesEncrypted`.
        if backup.servicesEncrypted != nil { throw .encryptedNotSupported(.twoFAS) }
        var result = ImportResult()
        for (index, service) in backup.services.enumerated() {
            let otp = service.otp
            let issuer = service.name.flatMap { $0.isEmpty ? nil : $0 } ?? otp?.issuer
            let converter = EntryConverter(
                type: otp?.tokenType ?? "totp",
                issuer: issuer,
                accountName: otp?.account ?? otp?.label ?? "",
                secret: service.secret,
                algorithm: otp?.algorithm,
                digits: otp?.digits,
                period: otp?.period,
                counter: otp?.counter
            )
            switch converter.convert() {
            case .account(let account): result.accounts.append(account)
            case .skipped(let reason):
                result.skipped.append(SkippedEntry(position: .entry(index + 1), label: converter.label, reason: reason))
            }
        }
        return result
    }

    private struct Backup: Decodable {
        let services: [Service]
        let schemaVersion: Int?
        let servicesEncrypted: String?
    }

    private struct Service: Decodable {
        let name: String?
        let secret: String
        let otp: OTP?
    }

    private struct OTP: Decodable {
        let label: String?
        let account: String?
        let issuer: String?
        let digits: Int?
        let period: Int?
        let algorithm: String?
        let counter: Int?
        let tokenType: String?
    }
}
