import Foundation
import OTPCore
import OTPVault

/// Reads a plain 2FAS backup (`.2fas`): `{"services": [...], "schemaVersion": 1...4, ...}`.
///
/// Follows Aegis's TwoFASImporter: the issuer is the service's name (what the 2FAS list shows),
/// schema 1 has no algorithm, digits or period (SHA1, 6, 30), and before schema 3 there is no
/// `tokenType`, so HOTP accounts of schema 2 files read as TOTP, as 2FAS itself wrote them.
///
/// An encrypted backup keeps `services` empty and holds them in `servicesEncrypted`:
/// `Base64(ciphertext ‖ tag) ":" Base64(salt) ":" Base64(IV)`, AES-256-GCM under
/// PBKDF2-HMAC-SHA256(password, salt, 10 000 iterations). `reference` is the same construction
/// over a fixed text, which tells a wrong password from a damaged file.
enum TwoFASImporter {
    static let schemaVersions = 1...4
    static let iterations = 10_000

    static func read(_ data: Data, password: VaultPassphrase?) throws(ImportError) -> ImportResult {
        let backup = try JSONReading.decode(Backup.self, from: data, format: .twoFAS)
        if let version = backup.schemaVersion, version > schemaVersions.upperBound {
            throw .unsupportedVersion(.twoFAS, version: version)
        }
        var services = backup.services
        if let encrypted = backup.servicesEncrypted {
            guard let password else { throw .passwordRequired(.twoFAS) }
            services = try decrypt(encrypted, reference: backup.reference, password: password)
        }
        var result = ImportResult()
        for (index, service) in services.enumerated() {
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

    private static func decrypt(_ encrypted: String, reference: String?, password: VaultPassphrase) throws(ImportError) -> [Service] {
        let services = try parts(of: encrypted, field: "servicesEncrypted")
        let key = try ExportDecryption.pbkdf2Key(password, salt: services.salt, iterations: iterations, hash: .sha256, format: .twoFAS)
        if let reference {
            let check = try parts(of: reference, field: "reference")
            // 2FAS uses one salt for both; another salt needs its own key.
            let referenceKey =
                check.salt == services.salt
                ? key : try ExportDecryption.pbkdf2Key(password, salt: check.salt, iterations: iterations, hash: .sha256, format: .twoFAS)
            guard try ExportDecryption.open(check.sealed[...], key: referenceKey, nonce: check.iv[...], format: .twoFAS) != nil else {
                throw .wrongPassword(.twoFAS)
            }
        }
        guard let plaintext = try ExportDecryption.open(services.sealed[...], key: key, nonce: services.iv[...], format: .twoFAS) else {
            throw reference == nil ? .wrongPassword(.twoFAS) : .damaged(.twoFAS)
        }
        return try JSONReading.decode([Service].self, from: plaintext, format: .twoFAS)
    }

    /// The three Base64 fields of an encrypted value.
    private static func parts(of value: String, field: String) throws(ImportError) -> (sealed: [UInt8], salt: [UInt8], iv: [UInt8]) {
        let fields = value.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let sealed = Data(base64Encoded: String(fields[0])), let salt = Data(base64Encoded: String(fields[1])),
            let iv = Data(base64Encoded: String(fields[2]))
        else { throw .malformed(.twoFAS, reason: "'\(field)' is not three Base64 fields separated by colons") }
        return (Array(sealed), Array(salt), Array(iv))
    }

    private struct Backup: Decodable {
        let services: [Service]
        let schemaVersion: Int?
        let servicesEncrypted: String?
        let reference: String?
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
