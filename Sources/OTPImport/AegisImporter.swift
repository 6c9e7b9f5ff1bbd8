import Foundation
import OTPURI
import OTPVault

/// Reads an Aegis vault, plain or encrypted: `{"version": 1, "header": {...}, "db": ...}` where the
/// db is `{"version": 1...3, "entries": [...]}` or, encrypted, its ciphertext.
///
/// OTPVault's ``AegisEnvelope`` reads the envelope of both kinds, so that the file format is parsed
/// in one place. Only the fields every database version 1 to 3 shares are read: later versions
/// added notes, favourites, icons and groups, none of which an account needs.
enum AegisImporter {
    static let databaseVersions = 1...3

    static func read(_ data: Data, password: VaultPassphrase?) throws(ImportError) -> ImportResult {
        let content: [UInt8]
        do {
            switch try AegisEnvelope.parse(Array(data)) {
            case .plain(let plain):
                content = plain
            case .encrypted(let envelope):
                guard let password else { throw ImportError.passwordRequired(.aegis) }
                content = try envelope.open(with: .passphrase(password)).content
            }
        } catch let error as ImportError {
            throw error
        } catch let error as VaultError {
            throw importError(error)
        } catch {
            throw .malformed(.aegis, reason: "\(error)")
        }
        let database = try JSONReading.decode(Database.self, from: Data(content), format: .aegis)
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

    /// The vault's own errors in the importer's terms; messages stay the vault's where they say more.
    private static func importError(_ error: VaultError) -> ImportError {
        switch error {
        case .wrongCredential: .wrongPassword(.aegis)
        case .damaged: .damaged(.aegis)
        case .unsupportedVersion(let version, _), .unsupportedContentVersion(let version, _): .unsupportedVersion(.aegis, version: version)
        case .malformed(let reason): .malformed(.aegis, reason: reason)
        case .noSlot: .malformed(.aegis, reason: "the vault has no password slot, so no password opens it")
        default: .malformed(.aegis, reason: error.description)
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
