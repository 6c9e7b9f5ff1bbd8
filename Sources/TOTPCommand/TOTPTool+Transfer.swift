internal import ArgumentParser
internal import OTPCommandSupport

extension TOTPTool {
    /// `totp import`, `totp export` and `totp add --qr` run `totp-transfer`, installed beside
    /// `totp`: it links Foundation, the importers, swift-protobuf, libzbar and TurboJPEG, which
    /// would slow every `totp code`.
    ///
    /// `main()` hands these commands over before parsing; the types here put them in `totp --help`.
    enum Transfer {
        static let program = "totp-transfer"
        static let commands: [any ParsableCommand.Type] = [Import.self, Export.self]

        static func handles(_ arguments: [String]) -> Bool {
            guard let first = arguments.first else { return false }
            if first == "add" { return arguments.contains("--qr") }
            return commands.contains { $0.configuration.commandName == first }
        }

        /// Replaces this process with `totp-transfer ARGUMENTS…`; returns only on failure.
        static func execute(_ arguments: [String]) -> CommandFailure {
            Companion.execute(program, arguments)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import accounts from Aegis, 2FAS, andOTP, Google Authenticator, URI lists or QR images (runs totp-transfer).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Export the vault as an Aegis vault, a URI list or Google Authenticator QR codes (runs totp-transfer).")
        @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    }
}
