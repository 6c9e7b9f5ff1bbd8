internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPVault

extension TOTPTool {
    /// `totp unlock`: keeps the vault open for the login session.
    struct Unlock: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock",
            abstract: "Keep the vault unlocked for this login session.",
            discussion: """
                Opens the vault once and leaves its key in the kernel's session keyring, readable \
                only by this login session's processes, until the timeout or totp lock. Later \
                commands then need no passphrase.
                """
        )

        @Option(help: ArgumentHelp("How long the vault stays unlocked, in minutes (default: 15).", valueName: "minutes"))
        var timeout: Int = VaultSession.defaultTimeout / 60

        @Flag(help: "Print a JSON object: accounts, timeoutSeconds.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func validate() throws {
            guard (1...24 * 60).contains(timeout) else { throw ValidationError("--timeout must be 1 to 1440 minutes") }
        }

        func run() throws {
            let vault = vaultOptions.vault
            let count: Int
            do {
                count = try vault.unlock(credential: try vaultOptions.credential(), timeout: timeout * 60)
            } catch {
                throw CommandFailure(error)
            }
            if json {
                var object = JSONObject()
                object.add("accounts", count)
                object.add("timeoutSeconds", timeout * 60)
                StandardStreams.writeOutput(object.text + "\n")
            } else {
                StandardStreams.writeOutput("unlocked \(vault.file.path) (\(count) accounts) for \(timeout) minutes\n")
            }
        }
    }
}
