internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore
internal import OTPVault

/// The `totp` command: one-time passwords at the command line.
///
/// Each subcommand is a nested type in its own `TOTPTool+Name.swift` file; a new command is one
/// more file and one more entry in `subcommands`.
@main
struct TOTPTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp",
        abstract: "Time-based one-time passwords (RFC 6238) and HOTP (RFC 4226) at the command line.",
        discussion: """
            A secret can come from an argument, --secret-file FILE, --uri URI, the environment \
            variable TOTP_SECRET, or standard input (pass - as the secret), so it need not appear \
            in the process list.

            totp NAME prints the code of an account in the vault (totp add, list, rm, rename, \
            unlock, lock manage it; import and export move accounts in and out); NAME is an issuer, \
            an account name or issuer:account, in any letter case.

            Exit status: 0 success, 1 invalid code (verify), 64 bad input or usage, 65 damaged or \
            foreign vault, 66 unreadable input file or no vault, 69 companion program missing, 70 \
            internal failure, 73 output file not written, 74 I/O failure, 75 vault busy, 77 wrong \
            passphrase or key file.
            """,
        version: "0.1.0",
        subcommands: [Code.self, Verify.self, New.self, QR.self, URI.self]
            + [Add.self, List.self, Remove.self, Rename.self, Unlock.self, Lock.self, Passphrase.self, KeyFileSlot.self]
            + Transfer.commands + Enrollment.commands
    )

    /// Parses and runs like ArgumentParser's own `main()`, but reports every failure as one line
    /// on standard error (the library adds the usage text, which buries the message in scripts).
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if let status = FastPath.run(arguments) { StandardStreams.exit(status) }
        // `totp NAME [OPTIONS]` is `totp code --name NAME [OPTIONS]` once there is a vault; before,
        // a stray word is the usage error it always was.
        if let first = arguments.first, !first.hasPrefix("-"), !isCommandName(first),
            arguments.contains("--vault") || VaultFile(path: VaultOptions.defaultPath()).exists
        {
            arguments = ["code", "--name"] + arguments
        }
        if Transfer.handles(arguments) {
            StandardStreams.exit(reporting: Transfer.execute(arguments), command: "totp \(arguments[0])")
        }
        if Enrollment.handles(arguments) {
            StandardStreams.exit(reporting: Enrollment.execute(arguments), command: "totp \(arguments[0])")
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exitReporting(error, command: commandPath(for: arguments)) { redactingSecrets(in: $0, arguments: arguments) }
        }
    }

    /// Whether `word` names a subcommand (or `help`) rather than a vault account.
    static func isCommandName(_ word: String) -> Bool {
        commandNames.contains(word)
    }

    /// The subcommands' names, spelled out: reading them from `configuration` instantiates the
    /// metadata of every command type, which cost `totp NAME` a seventh of its start-up.
    /// `ParsingTests` checks that the list matches the configuration.
    static let commandNames = [
        "help", "code", "verify", "new", "qr", "uri", "add", "list", "rm", "rename", "unlock", "lock", "passphrase", "key-file",
        "import", "export", "enroll", "signin", "recovery-codes", "reseal", "factors", "keygen", "account",
    ]

    /// ArgumentParser quotes the arguments it rejects (`Unexpected argument '…'`), and a secret
    /// typed in the wrong place would be one of them: any argument that reads as a secret or an
    /// otpauth:// URI is replaced before the message is printed.
    static func redactingSecrets(in message: String, arguments: [String]) -> String {
        var message = message
        for argument in arguments where argument.count >= 16 && message.contains(argument) {
            guard OTPSettings.isURI(argument) || (try? OTPSecret(base32: argument)) != nil else { continue }
            message = message.replacing(argument, with: "<redacted>")
        }
        return message
    }

    /// The names of the subcommands the arguments select (`totp uri make`), for error messages.
    static func commandPath(for arguments: [String]) -> String {
        commandPath(for: arguments, root: configuration.commandName ?? "totp")
    }
}
