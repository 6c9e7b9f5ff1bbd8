internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPVault

extension TOTPTool {
    /// `totp passphrase`: a new passphrase, or the same one at a higher scrypt cost.
    struct Passphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase",
            abstract: "Set the vault's passphrase, or raise its scrypt cost.",
            discussion: """
                Opens the vault as any command does (an unlocked session, --key-file, \
                --passphrase-fd, TOTP_VAULT_PASSPHRASE or the terminal), then replaces its \
                passphrase slot with one for the new passphrase (--new-passphrase-fd N, else asked \
                twice on the terminal). The accounts and a key-file slot stay as they are. The \
                scrypt cost is 2^N: 16 by default (about 0.2 s and 64 MiB per unlock), 14 to 20 \
                accepted; Aegis on a phone opens 15 at most comfortably.
                """
        )

        @Option(name: .customLong("scrypt-cost"), help: ArgumentHelp("scrypt's N as a power of two, 14 to 20 (default: 16).", valueName: "n"))
        var cost: Int = 16

        @Option(name: .customLong("new-passphrase-fd"), help: ArgumentHelp("Read the new passphrase from this open file descriptor.", valueName: "n"))
        var newPassphraseDescriptor: Int32?

        @Flag(help: "Print a JSON object: scryptCost.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func validate() throws {
            guard (14...20).contains(cost) else { throw ValidationError("--scrypt-cost must be 14 to 20") }
        }

        func run() throws {
            do {
                let parameters = try ScryptParameters(n: 1 << cost, r: ScryptParameters.default.r, p: ScryptParameters.default.p)
                let vault = vaultOptions.vault
                guard vault.file.exists else { throw VaultError.notFound(path: vault.file.path) }
                let passphrase: VaultPassphrase
                if let newPassphraseDescriptor {
                    passphrase = try PassphraseReader.read(descriptor: newPassphraseDescriptor)
                } else {
                    passphrase = try PassphraseReader.prompt("New vault passphrase: ", repeat: "Repeat the passphrase: ")
                }
                try vault.replaceCredential(with: .passphrase(passphrase), parameters: parameters) { () throws(VaultError) in
                    try vaultOptions.credential()
                }
            } catch let error as VaultError {
                throw CommandFailure(error)
            }
            if json {
                var object = JSONObject()
                object.add("scryptCost", cost)
                StandardStreams.writeOutput(object.text + "\n")
            } else {
                StandardStreams.writeOutput("the vault's passphrase is set (scrypt cost 2^\(cost))\n")
            }
        }
    }
}
