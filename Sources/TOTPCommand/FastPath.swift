internal import OTPCommandSupport
internal import OTPCore
internal import OTPVault

/// Runs the invocations scripts make once per code without ArgumentParser:
/// `totp code [SECRET | - | --secret-file FILE | --uri URI]` and
/// `totp verify CODE [SECRET | - | --secret-file FILE | --uri URI]` (or the secret in `TOTP_SECRET`),
/// with no other option.
///
/// ArgumentParser builds its model of the commands by reflection on every start, mostly the Swift
/// runtime scanning every protocol conformance record in the binary for each cast it makes: many
/// times what computing and printing the code costs (Benchmarks/README.md has the figures), and
/// `totp code SECRET` should start within twice `oathtool`'s time. This is not a
/// second parser: only the exact shapes above are recognised, the secret is resolved by the same
/// ``OTPSettings`` and printed by the same functions, and anything else — another option, a bad
/// secret, a malformed code — returns `nil` and goes through ArgumentParser, so output, errors and
/// exit statuses are the same either way.
enum FastPath {
    /// The exit status when the fast path handled the invocation, or `nil` to parse normally.
    static func run(_ arguments: [String]) -> ExitStatus? {
        if arguments.count == 1, !arguments[0].hasPrefix("-"), !TOTPTool.isCommandName(arguments[0]) {
            return vaultCode(named: arguments[0])
        }
        guard let command = arguments.first, command == "code" || command == "verify" else { return nil }
        var rest = arguments.dropFirst()
        var code = ""
        if command == "verify" {
            guard let first = rest.first, !first.hasPrefix("-") else { return nil }
            code = first
            rest = rest.dropFirst()
        }
        var settings = OTPSettings()
        let words = Array(rest)
        if words.count == 1, words[0] == "-" || !words[0].hasPrefix("-") {
            settings.secret = words[0]
        } else if words.count == 2, !words[1].hasPrefix("-"), words[0] == "--secret-file" {
            settings.secretFile = words[1]
        } else if words.count == 2, !words[1].hasPrefix("-"), words[0] == "--uri" {
            settings.uri = words[1]
        } else if !words.isEmpty {
            return nil
        }
        guard let generator = try? settings.generator() else { return nil }
        if command == "code" {
            guard let text = try? TOTPTool.Code.output(generator, next: 0, json: false, terminal: StandardStreams.outputIsTerminal)
            else { return nil }
            StandardStreams.writeOutput(text)
            return .success
        }
        let match: (offset: Int, counter: UInt64)?
        do {
            match = try TOTPTool.Verify.match(code, generator: generator, behind: nil, ahead: nil, window: 1)
        } catch {
            return nil
        }
        do { try TOTPTool.Verify.report(match, json: false) } catch { return .refused }
        return .success
    }

    /// `totp NAME` for a TOTP account while the vault is unlocked and unchanged since: answered
    /// from the session's snapshot, without AES or JSON (``VaultSnapshot`` says why); with
    /// `TOTP_VAULT_KEY_FILE` and no session, the vault is opened here rather than after
    /// ArgumentParser's start-up. Anything else — no credential, an HOTP account (printing its
    /// code is a change), a name that selects none or several, any failure — takes the long way,
    /// with the same output and errors.
    static func vaultCode(named name: String) -> ExitStatus? {
        let vault = Vault(path: VaultOptions.defaultPath())
        var entries = vault.sessionEntries()
        if entries == nil, let keyFile = Console.environment(VaultOptions.keyFileVariable), !keyFile.isEmpty {
            entries = try? vault.entries { () throws(VaultError) in .keyFile(try VaultKeyFile.load(path: keyFile)) }
        }
        guard let entries, case .one(let entry) = VaultQuery(name).select(from: entries), entry.account.kind == .totp,
            let totp = try? TOTP(
                secret: entry.account.secret, algorithm: entry.account.algorithm, digits: entry.account.digits, period: entry.account.period),
            let text = try? TOTPTool.Code.output(
                .totp(totp, time: TOTP.currentUnixTime()), next: 0, json: false, terminal: StandardStreams.outputIsTerminal)
        else { return nil }
        StandardStreams.writeOutput(text)
        return .success
    }
}
