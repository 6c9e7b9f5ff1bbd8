internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPVault

extension TOTPTool {
    /// `totp rm`: removes one account.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove an account from the vault.",
            discussion: "NAME must select one account (see totp NAME); the previous vault is kept as VAULT.bak."
        )

        @Argument(help: ArgumentHelp("The account: issuer, account name or issuer:account.", valueName: "name"))
        var name: String

        @Flag(help: "Print a JSON object of the removed account.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let removed = try vaultOptions.update {
                (content: inout VaultContent) throws(VaultError) -> Result<VaultEntry, CommandFailure> in
                do throws(CommandFailure) {
                    let entry = try VaultAccess.select(name, in: content.entries)
                    content.entries.removeAll { $0.id == entry.id }
                    return .success(entry)
                } catch {
                    return .failure(error)
                }
            }.get()
            StandardStreams.writeOutput(json ? VaultAccess.json(removed).text + "\n" : "removed \(removed.label)\n")
        }
    }
}
