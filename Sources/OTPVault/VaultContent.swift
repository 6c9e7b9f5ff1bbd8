internal import OTPCore
internal import FoundationEssentials
public import OTPURI

/// What a vault holds once opened: its entries, in the order they were added.
///
/// Stored as the decrypted `db` of an Aegis vault, content version 3, so an exported vault is
/// something Aegis reads: `{"version": 3, "entries": [...], "groups": [], "icons_optimized": true}`,
/// each entry with `type`, `uuid`, `name`, `issuer`, `note`, `favorite`, `icon`, `info` (`secret` in
/// Base32, `algo`, `digits`, and `period` or `counter`) and `groups`.
public struct VaultContent: Equatable, Sendable {
    /// The content version written, Aegis's current one.
    public static let version = 3
    /// The content versions read: Aegis's database versions 1 to 3 share the entry fields used here.
    public static let readableVersions = 1...3

    /// The entries, oldest first.
    public var entries: [VaultEntry]

    /// Creates content holding `entries`.
    public init(entries: [VaultEntry] = []) {
        self.entries = entries
    }
}

extension VaultContent {
    /// Reads decrypted content.
    ///
    /// - Throws: ``VaultError/unsupportedContentVersion(_:newest:)`` for a version after 3, and
    ///   ``VaultError/malformedContent(_:)`` for JSON that is not vault content or an entry this
    ///   vault cannot keep (Steam, mOTP, Yandex), which a save would otherwise drop.
    public init(decoding bytes: some Collection<UInt8>) throws(VaultError) {
        let data = Data(bytes)
        let version: Int
        do {
            version = try JSONDecoder().decode(VersionProbe.self, from: data).version
        } catch {
            throw .malformedContent("the decrypted content is not a vault database")
        }
        guard version <= Self.readableVersions.upperBound else { throw .unsupportedContentVersion(version, newest: Self.readableVersions.upperBound) }
        let database: Database
        do {
            database = try JSONDecoder().decode(Database.self, from: data)
        } catch {
            throw .malformedContent("the decrypted content has entries without the fields a vault needs")
        }
        var entries: [VaultEntry] = []
        entries.reserveCapacity(database.entries.count)
        for (index, entry) in database.entries.enumerated() {
            entries.append(try entry.vaultEntry(position: index + 1))
        }
        self.entries = entries
    }

    /// The content as Aegis's JSON (content version 3), for sealing.
    ///
    /// The bytes hold every secret in Base32: seal them and let them go.
    public func encoded() throws(VaultError) -> [UInt8] {
        let database = Database(
            version: Self.version,
            entries: entries.map(Entry.init),
            groups: [],
            iconsOptimized: true
        )
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(database))
        } catch {
            throw .malformedContent("the entries could not be encoded as JSON")
        }
    }

    private struct VersionProbe: Decodable {
        let version: Int
    }

    private struct Database: Codable {
        let version: Int
        let entries: [Entry]
        var groups: [Group]? = nil
        var iconsOptimized: Bool? = nil

        enum CodingKeys: String, CodingKey {
            case version, entries, groups
            case iconsOptimized = "icons_optimized"
        }
    }

    /// Aegis's groups (content version 3); this vault writes none, and reading keeps none.
    private struct Group: Codable {
        let uuid: String
        let name: String
    }

    private struct Entry: Codable {
        let type: String
        let uuid: String
        let name: String
        let issuer: String
        let note: String?
        let favorite: Bool?
        let info: Info
        let groups: [String]?

        init(_ entry: VaultEntry) {
            let account = entry.account
            type = account.kind.rawValue
            uuid = entry.id
            name = account.accountName
            issuer = account.issuer ?? ""
            note = entry.note
            favorite = false
            info = Info(
                secret: account.secret.base32,
                algo: account.algorithm.rawValue,
                digits: account.digits,
                period: account.kind == .totp ? account.period : nil,
                counter: account.kind == .hotp ? account.counter : nil
            )
            groups = []
        }

        func vaultEntry(position: Int) throws(VaultError) -> VaultEntry {
            let kind: OTPAuthURI.Kind
            switch type {
            case "totp": kind = .totp
            case "hotp": kind = .hotp
            default: throw .malformedContent("entry \(position) is of type \(type), which this vault cannot keep")
            }
            guard let algorithm = OTPAlgorithm(name: info.algo) else {
                throw .malformedContent("entry \(position) has the unsupported algorithm \(info.algo)")
            }
            do {
                let account = try OTPAuthURI(
                    kind: kind,
                    issuer: issuer,
                    accountName: name,
                    secret: try OTPSecret(base32: info.secret, mode: .lenient),
                    algorithm: algorithm,
                    digits: info.digits,
                    period: info.period ?? OTPAuthURI.defaultPeriod,
                    counter: kind == .hotp ? (info.counter ?? 0) : nil
                )
                return try VaultEntry(id: uuid, account: account, note: note ?? "")
            } catch {
                // The error describes the field, never its value (OTPError and OTPURIError hold no secret).
                throw .malformedContent("entry \(position) is invalid: \(error)")
            }
        }
    }

    private struct Info: Codable {
        let secret: String
        let algo: String
        let digits: Int
        let period: Int64?
        let counter: UInt64?
    }
}

extension VaultContent {
    /// What ``add(_:)`` did.
    public struct Addition: Sendable {
        /// The new entries, in the order given.
        public var added: [VaultEntry] = []
        /// The accounts left out because the vault already holds them (or an earlier one of the same call).
        public var duplicates: [OTPAuthURI] = []
    }

    /// Appends the accounts the vault does not hold yet: a duplicate is the same secret of the same
    /// kind under the same issuer and account name, wherever it came from (`totp add`, an import,
    /// a QR code scanned twice).
    public mutating func add(_ accounts: [OTPAuthURI]) throws(VaultError) -> Addition {
        var addition = Addition()
        for account in accounts {
            if entries.contains(where: { $0.account.isSameAccount(as: account) }) {
                addition.duplicates.append(account)
                continue
            }
            let entry: VaultEntry
            do {
                entry = try VaultEntry(account: account)
            } catch {
                throw .cryptoFailure("\(error)")
            }
            entries.append(entry)
            addition.added.append(entry)
        }
        return addition
    }
}

extension OTPAuthURI {
    /// The same secret of the same kind under the same issuer and account name.
    func isSameAccount(as other: OTPAuthURI) -> Bool {
        issuer == other.issuer && accountName == other.accountName && kind == other.kind
            && secret.withUnsafeBytes { mine in other.secret.withUnsafeBytes { theirs in mine.elementsEqual(theirs) } }
    }
}
