public import OTPURI

/// Finds the entries a name given on the command line means, case-insensitively, on the issuer
/// and the account name.
///
/// An exact match wins: the issuer, the account name or `issuer:account`. Without one, the name
/// matches every entry whose `issuer:account` contains it. So `totp github` picks the only GitHub
/// account, and with two of them `totp github:alice` picks one.
public struct VaultQuery: Sendable {
    /// What a name selects.
    public enum Selection: Equatable, Sendable {
        case none
        case one(VaultEntry)
        case several([VaultEntry])
    }

    /// The name as given.
    public let name: String
    private let folded: String

    /// A query for `name`.
    public init(_ name: String) {
        self.name = name
        folded = name.lowercased()
    }

    /// The entries `name` selects among `entries`, in the vault's order.
    public func select(from entries: [VaultEntry]) -> Selection {
        let exact = entries.filter { isExactMatch($0) }
        let matches = exact.isEmpty ? entries.filter { contains($0) } : exact
        switch matches.count {
        case 0: return .none
        case 1: return .one(matches[0])
        default: return .several(matches)
        }
    }

    /// The entries a listing filter keeps: all when the name is empty, else those whose
    /// `issuer:account` contains it.
    public func filter(_ entries: [VaultEntry]) -> [VaultEntry] {
        folded.isEmpty ? entries : entries.filter { contains($0) }
    }

    private func isExactMatch(_ entry: VaultEntry) -> Bool {
        let issuer = (entry.account.issuer ?? "").lowercased()
        let account = entry.account.accountName.lowercased()
        return folded == issuer || folded == account || folded == entry.label.lowercased()
    }

    private func contains(_ entry: VaultEntry) -> Bool {
        entry.label.lowercased().contains(folded)
    }
}

extension VaultEntry {
    /// `issuer:account`, or the account name alone without an issuer: how lists and messages name it.
    public var label: String { Self.label(of: account) }

    /// `issuer:account` of an account not (yet) in a vault.
    public static func label(of account: OTPAuthURI) -> String {
        guard let issuer = account.issuer else { return account.accountName }
        return issuer + ":" + account.accountName
    }
}
