internal import ArgumentParser
internal import OTPCommandSupport

extension TransferTool {
    /// `totp import FILE…`: accounts from other authenticators' exports and QR images.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import accounts from other authenticators' exports or QR code images.",
            discussion: """
                Reads Aegis vaults (plain or encrypted), 2FAS backups (plain or encrypted), andOTP \
                backups (plain or encrypted), Google Authenticator exports (otpauth-migration:// \
                URIs, as text or in QR images; a batch may span several images), otpauth:// URI \
                lists, and PNG or JPEG images of QR codes. The format is detected from the content \
                unless --from names it. Every file is read before the vault changes: one that fails \
                leaves the vault as it was. Prints what was added, what was already there, and \
                what was skipped and why (Steam, mOTP, unsupported algorithms, bad lines).
                """
        )

        @Argument(help: ArgumentHelp("The export files or images.", valueName: "file"), completion: .file())
        var files: [String]

        @Option(help: ArgumentHelp("The format: aegis, 2fas, andotp, google, uri-list or qr (default: detected).", valueName: "format"))
        var from: ImportSource?

        @Option(
            name: .customLong("password-file"),
            help: ArgumentHelp("Read an encrypted export's password from this file (default: asked on the terminal).", valueName: "file"),
            completion: .file())
        var passwordFile: String?

        @Flag(help: "Print a JSON object: added, duplicates, skipped, missing.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to import") }
        }

        func run() throws {
            try ImportRun(files: files, source: from, passwordFile: passwordFile, vaultOptions: vaultOptions).run(json: json)
        }
    }

    /// `totp add --qr IMAGE…`: the accounts in QR code images.
    struct AddQR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add the accounts in QR code images (PNG or JPEG) to the vault."
        )

        @Option(
            name: .customLong("qr"), parsing: .upToNextOption,
            help: ArgumentHelp("The images: otpauth:// or Google Authenticator export codes.", valueName: "image"),
            completion: .file())
        var images: [String]

        @Flag(help: "Print a JSON object: added, duplicates, skipped, missing.")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func validate() throws {
            guard !images.isEmpty else { throw ValidationError("name at least one image after --qr") }
        }

        func run() throws {
            try ImportRun(files: images, source: .qr, passwordFile: nil, vaultOptions: vaultOptions).run(json: json)
        }
    }
}
