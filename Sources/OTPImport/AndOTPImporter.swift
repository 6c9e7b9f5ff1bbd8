import Foundation
import OTPCore
import OTPVault

/// Reads an andOTP backup: a JSON array of entries with Base32 secrets padded with `=`, plain or
/// encrypted.
///
/// Encrypted backups come in two layouts with no magic bytes to tell them apart: the new one,
/// `iterations (Int32, big-endian) ‖ salt (12) ‖ IV (12) ‖ ciphertext ‖ tag` under
/// PBKDF2-HMAC-SHA1(password, salt, iterations), and the old one, `IV ‖ ciphertext ‖ tag` under
/// SHA-256(password). The new one is tried when its iteration count is plausible, then the old.
enum AndOTPImporter {
    /// The iteration counts accepted before deriving, as Aegis bounds them (andOTP writes 140 000 to 160 000).
    static let iterationRange = 1...10_000_000

    static func read(_ data: Data, password: VaultPassphrase?) throws(ImportError) -> ImportResult {
        // andOTP's encrypted backups have no magic bytes: whatever is not JSON text is taken for one,
        // as Aegis's importer does.
        var plain = data
        if !isJSONArray(data) {
            guard let password else { throw .passwordRequired(.andOTP) }
            plain = try decrypt(Array(data), password: password)
        }
        let entries = try JSONReading.decode([Entry].self, from: plain, format: .andOTP)
        var result = ImportResult()
        for (index, entry) in entries.enumerated() {
            let (issuer, name) = split(entry)
            let converter = EntryConverter(
                type: entry.type,
                issuer: issuer,
                accountName: name,
                secret: entry.secret,
                algorithm: entry.algorithm,
                digits: entry.digits,
                period: entry.period,
                counter: entry.counter
            )
            switch converter.convert() {
            case .account(let account): result.accounts.append(account)
            case .skipped(let reason):
                result.skipped.append(SkippedEntry(position: .entry(index + 1), label: converter.label, reason: reason))
            }
        }
        return result
    }

    private static func isJSONArray(_ data: Data) -> Bool {
        guard let text = TextDecoding.string(from: data) else { return false }
        return text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) == "["
    }

    private static func decrypt(_ bytes: [UInt8], password: VaultPassphrase) throws(ImportError) -> Data {
        let nonceCount = AESGCM.nonceByteCount
        let tagCount = AESGCM.tagByteCount
        let headerCount = 4 + 12 + nonceCount
        if bytes.count >= headerCount + tagCount {
            let iterations = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
            if iterationRange.contains(iterations) {
                let key = try ExportDecryption.pbkdf2Key(password, salt: Array(bytes[4..<16]), iterations: iterations, hash: .sha1, format: .andOTP)
                if let plain = try ExportDecryption.open(bytes[headerCount...], key: key, nonce: bytes[16..<headerCount], format: .andOTP) {
                    return plain
                }
            }
        }
        guard bytes.count >= nonceCount + tagCount else { throw .malformed(.andOTP, reason: "the file is too short to be an encrypted backup") }
        let key: SecureBytes
        do {
            key = try password.storage.withUnsafeBytes { password throws(PasswordKDF.Failure) in try PasswordKDF.sha256(password: password) }
        } catch {
            throw .malformed(.andOTP, reason: error.description)
        }
        guard let plain = try ExportDecryption.open(bytes[nonceCount...], key: key, nonce: bytes[..<nonceCount], format: .andOTP) else {
            throw .wrongPassword(.andOTP)
        }
        return plain
    }

    /// Old andOTP exports have no `issuer` and write the label as `Issuer - Account`; split it as
    /// Aegis's importer does.
    private static func split(_ entry: Entry) -> (issuer: String?, name: String) {
        if let issuer = entry.issuer { return (issuer, entry.label) }
        guard let separator = entry.label.range(of: " - ") else { return (nil, entry.label) }
        return (String(entry.label[..<separator.lowerBound]), String(entry.label[separator.upperBound...]))
    }

    private struct Entry: Decodable {
        let secret: String
        let issuer: String?
        let label: String
        let digits: Int?
        let type: String
        let algorithm: String?
        let period: Int?
        let counter: Int?
    }
}
