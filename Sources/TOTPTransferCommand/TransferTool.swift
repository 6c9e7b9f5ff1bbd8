internal import ArgumentParser
internal import OTPCommandSupport

/// `totp-transfer`: moves accounts into and out of `totp`'s vault. `totp import`, `totp export`
/// and `totp add --qr` run it: it links Foundation, the importers, swift-protobuf, libzbar and
/// TurboJPEG, none of which `totp code` should load.
@main
struct TransferTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "totp-transfer",
        abstract: "Import accounts into totp's vault and export them (run as totp import, totp export, totp add --qr).",
        discussion: """
            Exit status: 0 success, 64 bad input or usage, 65 damaged or foreign file, 66 unreadable \
            input or no vault, 70 internal failure, 73 output file not written, 74 I/O failure, 75 \
            vault busy, 77 wrong passphrase, key file or export password.
            """,
        version: "0.1.0",
        subcommands: [Import.self, Export.self, AddQR.self]
    )

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exitReporting(error, command: commandPath(for: arguments, root: "totp")) { $0 }
        }
    }
}
