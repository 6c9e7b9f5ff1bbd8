internal import OTPCommandSupport
internal import OTPCore
internal import OTPURI
internal import OTPVault

/// What the vault commands share: reading the entries, picking the one a name means, and the
/// generator for an entry (which, for HOTP, is a change of the vault).
enum VaultAccess {
    /// The one entry `name` selects.
    /// - Throws: a usage failure naming the candidates when the name is ambiguous, or none matches.
    static func select(_ name: String, in entries: [VaultEntry]) throws(CommandFailure) -> VaultEntry {
        switch VaultQuery(name).select(from: entries) {
        case .one(let entry):
            return entry
        case .none:
            throw .usage("no account in the vault matches \(quoted(name)): see totp list")
        case .several(let candidates):
            throw .usage(
                "\(quoted(name)) matches \(candidates.count) accounts: \(candidates.map(\.label).joined(separator: ", ")); name one as issuer:account"
            )
        }
    }

    /// The generator for the entry `name` selects, at `time` for TOTP. For HOTP the counter used
    /// (the stored one, or `counter` to resynchronize) is stored plus one *before* the code is
    /// returned, so a code shown is never shown again, even if this process dies next.
    static func generator(named name: String, options: VaultOptions, counter: UInt64?, time: Int64) throws(CommandFailure) -> Generator {
        let entries = try options.entries()
        let entry = try select(name, in: entries)
        switch entry.account.kind {
        case .totp:
            guard counter == nil else { throw .usage("--counter applies to HOTP accounts; \(entry.label) is TOTP") }
            return try CommandFailure.reporting {
                .totp(
                    try TOTP(
                        secret: entry.account.secret, algorithm: entry.account.algorithm, digits: entry.account.digits, period: entry.account.period),
                    time: time)
            }
        case .hotp:
            let used = try options.update { (content: inout VaultContent) throws(VaultError) -> UInt64 in
                guard let index = content.entries.firstIndex(where: { $0.id == entry.id }) else {
                    throw .malformedContent("the account \(entry.label) was removed meanwhile")
                }
                let stored = content.entries[index].account
                let used = counter ?? stored.counter ?? 0
                guard used < UInt64.max else { throw .malformedContent("the HOTP counter of \(entry.label) is exhausted") }
                content.entries[index].account = try stored.withCounter(used + 1)
                return used
            }
            return try CommandFailure.reporting {
                .hotp(try HOTP(secret: entry.account.secret, algorithm: entry.account.algorithm, digits: entry.account.digits), counter: used)
            }
        }
    }

    /// An entry for `--json` output: never the secret.
    static func json(_ entry: VaultEntry) -> JSONObject {
        var object = JSONObject()
        object.add("id", entry.id)
        object.add("issuer", entry.account.issuer)
        object.add("account", entry.account.accountName)
        object.add("type", entry.account.kind.rawValue)
        object.add("algorithm", entry.account.algorithm.rawValue)
        object.add("digits", entry.account.digits)
        if entry.account.kind == .totp {
            object.add("period", entry.account.period)
        } else {
            object.add("counter", entry.account.counter)
        }
        return object
    }

    static func quoted(_ text: String) -> String { "'\(text)'" }
}

extension OTPAuthURI {
    /// The same account with another HOTP counter.
    func withCounter(_ counter: UInt64) throws(VaultError) -> OTPAuthURI {
        do {
            return try OTPAuthURI(
                kind: kind, issuer: issuer, accountName: accountName, secret: secret, algorithm: algorithm,
                digits: digits, period: period, counter: counter, additionalParameters: additionalParameters)
        } catch {
            throw .malformedContent("\(error)")
        }
    }

    /// The same account under another issuer and name.
    func renamed(issuer: String?, accountName: String) throws(OTPURIError) -> OTPAuthURI {
        try OTPAuthURI(
            kind: kind, issuer: issuer, accountName: accountName, secret: secret, algorithm: algorithm,
            digits: digits, period: period, counter: counter, additionalParameters: additionalParameters)
    }
}
