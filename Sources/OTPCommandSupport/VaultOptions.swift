package import ArgumentParser
internal import Glibc
package import OTPVault

/// Where the vault is and how to open it: the options every vault command takes.
///
/// The vault is `--vault FILE`, else `TOTP_VAULT`, else `$XDG_DATA_HOME/otpkit/vault.json`
/// (`~/.local/share/otpkit/vault.json`). Without an unlocked session it opens with `--key-file FILE`
/// (or `TOTP_VAULT_KEY_FILE`), a passphrase read from `--passphrase-fd N`, `TOTP_VAULT_PASSPHRASE`
/// (visible to other processes of the same user: for tests and throwaway machines) or, last, the
/// terminal with echo off. Never from an argument: the process list shows arguments to everyone.
package struct VaultOptions: ParsableArguments {
    @Option(
        name: .customLong("vault"),
        help: ArgumentHelp("The vault file (default: TOTP_VAULT, else $XDG_DATA_HOME/otpkit/vault.json).", valueName: "file"))
    package var vaultPath: String?

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "Open the vault with this key file (32 bytes, mode 0600; see totp keygen). Default: TOTP_VAULT_KEY_FILE.", valueName: "file"))
    package var keyFile: String?

    @Option(
        name: .customLong("passphrase-fd"),
        help: ArgumentHelp("Read the vault passphrase from this open file descriptor (up to a newline).", valueName: "n"))
    package var passphraseDescriptor: Int32?

    package init() {}

    /// The environment variables read, with their documented meaning.
    package static let vaultVariable = "TOTP_VAULT"
    package static let keyFileVariable = "TOTP_VAULT_KEY_FILE"
    package static let passphraseVariable = "TOTP_VAULT_PASSPHRASE"

    /// The vault file this invocation uses.
    package var path: String {
        if let vaultPath { return vaultPath }
        return Self.defaultPath()
    }

    /// `TOTP_VAULT`, else the default location.
    package static func defaultPath() -> String {
        if let path = environment(vaultVariable), !path.isEmpty { return path }
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/otpkit/vault.json" }
        let home = environment("HOME") ?? "."
        return home + "/.local/share/otpkit/vault.json"
    }

    /// The vault this invocation uses.
    package var vault: Vault { Vault(path: path) }

    /// Whether the invocation names a credential itself, which then wins over an unlocked session.
    package var namesCredential: Bool { keyFile != nil || passphraseDescriptor != nil }

    /// The credential, resolved only when called: a key file, a passphrase from a descriptor or
    /// the environment, else a terminal prompt (asked twice when `creating` a vault).
    package func credential(creating: Bool = false) throws(VaultError) -> VaultCredential {
        if let path = keyFile ?? Self.environment(Self.keyFileVariable).flatMap({ $0.isEmpty ? nil : $0 }) {
            return .keyFile(try VaultKeyFile.load(path: path))
        }
        if let passphraseDescriptor {
            return .passphrase(try PassphraseReader.read(descriptor: passphraseDescriptor))
        }
        if let passphrase = Self.environment(Self.passphraseVariable) {
            guard !passphrase.isEmpty else { throw .passphraseUnavailable("\(Self.passphraseVariable) is empty") }
            return .passphrase(VaultPassphrase(utf8: passphrase.utf8))
        }
        return .passphrase(try PassphraseReader.prompt(confirming: creating))
    }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension VaultOptions {
    /// The vault's entries, from an unlocked session when there is one.
    package func entries() throws(CommandFailure) -> [VaultEntry] {
        do {
            return try vault.entries { () throws(VaultError) in try credential() }
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Changes the vault (creating it first when asked), reporting a failure as the command's.
    package func update<Result>(
        createIfMissing: Bool = false,
        _ body: (inout VaultContent) throws(VaultError) -> Result
    ) throws(CommandFailure) -> Result {
        let vault = vault
        let creating = createIfMissing && !vault.file.exists
        let credential = { () throws(VaultError) -> VaultCredential in try self.credential(creating: creating) }
        do {
            return try vault.update(credential: credential, createIfMissing: createIfMissing, body)
        } catch {
            throw CommandFailure(error)
        }
    }
}
