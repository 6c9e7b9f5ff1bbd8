import Foundation
import OTPURI

/// Reads a plain Aegis vault: `{"version": 1, "header": {...}, "db": {"version": 1...3, "entries": [...]}}`.
///
/// Only the fields every database version 1 to 3 shares are read: later versions added notes,
/// favourites, icons and groups, none of which an account needs.
enum AegisImporter {
    static let vaultVersion = 1
    static let databaseVersions = 1...3

    static func read(_ data: Data) throws(ImportError) -> ImportResult {
        // The version first: a newer vault may have moved or encrypted things differently, and
        // saying so beats a decoding error about a field that moved.
        let version = try JSONReading.decode(VersionProbe.self, from: data, format: .aegis).version
        guard version <= vaultVersion else { throw .unsupportedVersion(.aegis, version: version) }
        let vault = try JSONReading.decode(Vault.self, from: data, format: .aegis)
        let database: Database
        switch vault.db {
        case .encrypted:
            throw .encryptedNotSupported(.aegis)
        case .plain(let plain):
            // Slots without a plain `db` cannot happen in Aegis's own files; with one, the entries are readable.
            database = plain
        }
        guard database.version <= databaseVersions.upperBound else { throw .unsupportedVersion(.aegis, version: database.version) }
        var result = ImportResult()
        for (index, entry) in database.entries.enumerated() {
            let converter = EntryConverter(
                type: entry.type,
                issuer: entry.issuer,
                accountName: entry.name,
                secret: entry.info.secret,
                algorithm: entry.info.algo,
                digits: entry.info.digits,
                period: entry.info.period,
                counter: entry.info.counter
            )
            switch converter.convert() {
            case .account(let account): result.accounts.append(account)
            case .skipped(let reason):
                result.skipped.append(SkippedEntry(position: .entry(index + 1), label: converter.label, reason: reason))
            }
        }
        return result
    }

    private struct VersionProbe: Decodable {
        let version: Int
    }

    private struct Vault: Decodable {
        let db: DatabaseField
    }

    /// `db` is the database object in a plain vault and a Base64 string of its ciphertext in an
    /// encrypted one.
    private enum DatabaseField: Decodable {
        case plain(Database)
        case encrypted

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if (try? container.decode(String.self)) != nil {
                self = .encrypted
            } else {
                self = .plain(try container.decode(Database.self))
            }
        }
    }

    private struct Database: Decodable {
        let version: Int
        let entries: [Entry]
    }

    private struct Entry: Decodable {
        let type: String
        let name: String
        let issuer: String?
        let info: Info
    }

    private struct Info: Decodable {
        let secret: String
        let algo: String?
        let digits: Int?
        let period: Int?
        let counter: Int?
    }
}
