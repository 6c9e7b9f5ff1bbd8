internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPURI
internal import OTPVault

extension TOTPTool {
    /// `totp rename`: gives an account another issuer and name.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename",
            abstract: "Rename an account in the vault.",
            discussion: "NEW is issuer:account, or an account name alone to drop the issuer."
        )

        @Argument(help: ArgumentHelp("The account: issuer, account name or issuer:account.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("The new issuer:account, or account name.", valueName: "new"))
        var newName: String

        @Flag(help: "Print a JSON object of the renamed account.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let parts = newName.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let issuer = parts.count == 2 ? String(parts[0]) : nil
            let accountName = String(parts.count == 2 ? parts[1] : parts[0])
            guard !accountName.isEmpty else { throw CommandFailure.usage("the new name has no account name after the issuer") }
            let renamed = try vaultOptions.update {
                (content: inout VaultContent) throws(VaultError) -> Result<VaultEntry, CommandFailure> in
                do throws(CommandFailure) {
                    let entry = try VaultAccess.select(name, in: content.entries)
                    guard let index = content.entries.firstIndex(where: { $0.id == entry.id }) else {
                        return .failure(.software("the account vanished"))
                    }
                    do {
                        content.entries[index].account = try entry.account.renamed(issuer: issuer, accountName: accountName)
                    } catch {
                        return .failure(.usage("invalid new name: \(error)"))
                    }
                    return .success(content.entries[index])
                } catch {
                    return .failure(error)
                }
            }.get()
            StandardStreams.writeOutput(json ? VaultAccess.json(renamed).text + "\n" : "renamed to \(renamed.label)\n")
        }
    }
}
