internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPVault

extension TOTPTool {
    /// `totp lock`: ends the session `unlock` started.
    struct Lock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lock",
            abstract: "Forget the unlocked vault's key now."
        )

        @Flag(help: "Print a JSON object: wasUnlocked.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            let ended = vaultOptions.vault.lock()
            if json {
                var object = JSONObject()
                object.add("wasUnlocked", ended)
                StandardStreams.writeOutput(object.text + "\n")
            } else {
                StandardStreams.writeOutput(ended ? "locked\n" : "the vault was not unlocked\n")
            }
        }
    }
}
