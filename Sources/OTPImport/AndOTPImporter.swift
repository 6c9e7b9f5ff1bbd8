import Foundation

/// Reads a plain andOTP backup: a JSON array of entries with Base32 secrets padded with `=`.
enum AndOTPImporter {
    static func read(_ data: Data) throws(ImportError) -> ImportResult {
        // andOTP's encrypted backups have no magic bytes: whatever is not JSON text is taken for one,
        // as Aegis's importer does.
        guard let text = TextDecoding.string(from: data), text.unicodeScalars.first(where: { !$0.properties.isWhitespace }) == "[" else {
            throw .encryptedNotSupported(.andOTP)
        }
        let entries = try JSONReading.decode([Entry].self, from: data, format: .andOTP)
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
