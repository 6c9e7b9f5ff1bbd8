internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPVault

extension TOTPTool {
    /// `totp list`: the vault's accounts, never their secrets.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the accounts in the vault.",
            discussion: "With QUERY, only the accounts whose issuer:account contains it (any letter case)."
        )

        @Argument(help: ArgumentHelp("Show only accounts whose issuer:account contains this.", valueName: "query"))
        var query: String?

        @Flag(help: "Print a JSON array of the accounts: id, issuer, account, type, algorithm, digits, period or counter.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let entries = VaultQuery(query ?? "").filter(try vaultOptions.entries())
            if json {
                StandardStreams.writeOutput(JSONObject.array(entries.map(VaultAccess.json)) + "\n")
                return
            }
            var text = ""
            for entry in entries {
                let account = entry.account
                let detail =
                    account.kind == .totp
                    ? "totp, \(account.digits) digits, \(account.period) s, \(account.algorithm.rawValue)"
                    : "hotp, \(account.digits) digits, next counter \(account.counter ?? 0), \(account.algorithm.rawValue)"
                text += "\(entry.label)  (\(detail))\n"
            }
            StandardStreams.writeOutput(text)
        }
    }
}
