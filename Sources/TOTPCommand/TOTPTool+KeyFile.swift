internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPVault

extension TOTPTool {
    /// `totp key-file FILE`: lets a key file open the vault.
    struct KeyFileSlot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "key-file",
            abstract: "Let a key file open the vault (replacing the key file that did).",
            discussion: "The key file holds 32 random bytes (or 64 hexadecimal characters) and has mode 0600, as totp keygen writes it."
        )

        @Argument(help: ArgumentHelp("The key file.", valueName: "file"), completion: .file())
        var path: String

        @OptionGroup var vaultOptions: VaultOptions

        func run() throws {
            do {
                let vault = vaultOptions.vault
                guard vault.file.exists else { throw VaultError.notFound(path: vault.file.path) }
                let keyFile = try VaultKeyFile.load(path: path)
                try vault.replaceCredential(with: .keyFile(keyFile)) { () throws(VaultError) in try vaultOptions.credential() }
            } catch let error as VaultError {
                throw CommandFailure(error)
            }
            StandardStreams.writeOutput("\(path) now opens the vault\n")
        }
    }
}
