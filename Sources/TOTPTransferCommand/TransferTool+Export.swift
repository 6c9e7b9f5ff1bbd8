internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore
internal import OTPImport
internal import OTPQR
internal import OTPURI
internal import OTPVault

extension TransferTool {
    /// `totp export`: the vault's accounts in a form other apps read.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export the vault's accounts for another authenticator.",
            discussion: """
                aegis writes an encrypted Aegis vault (its password from --password-file or asked \
                twice), re-wrapped at Aegis's own scrypt cost so phones open it; uri-list writes one \
                otpauth:// URI a line; google-qr draws Google Authenticator export codes (10 \
                accounts each, TOTP with a 30-second period and 6 or 8 digits only) on the terminal, \
                or writes them as PNG files with --output. Files are created with mode 0600 and never \
                overwrite one that exists. The output holds every secret: keep it safe.
                """
        )

        enum Format: String, CaseIterable, ExpressibleByArgument {
            case aegis
            case uriList = "uri-list"
            case googleQR = "google-qr"
        }

        @Option(help: ArgumentHelp("aegis, uri-list or google-qr.", valueName: "format"))
        var format: Format

        @Option(
            help: ArgumentHelp(
                "Write to this file (default: standard output); for google-qr, the PNG files' path prefix (FILE-1.png, FILE-2.png, …).",
                valueName: "file"),
            completion: .file())
        var output: String?

        @Option(
            name: .customLong("password-file"),
            help: ArgumentHelp("The Aegis export's password, from this file (default: asked twice on the terminal).", valueName: "file"),
            completion: .file())
        var passwordFile: String?

        @Flag(help: "Print a JSON object: format, accounts, files, skipped (with --output).")
        var json = false

        @OptionGroup var vaultOptions: VaultOptions

        func validate() throws {
            if json && output == nil { throw ValidationError("--json describes files written: add --output") }
            if passwordFile != nil && format != .aegis { throw ValidationError("--password-file applies to --format aegis") }
        }

        func run() throws {
            let entries = try vaultOptions.entries()
            StandardStreams.writeError("totp export: warning: the output holds the secrets of \(entries.count) accounts: keep it private\n")
            var files: [String] = []
            var skipped: [String] = []
            switch format {
            case .aegis:
                let bytes = try Self.aegisExport(entries, passwordFile: passwordFile)
                files += try NewFile.write(bytes, to: output)
            case .uriList:
                var text = ""
                for entry in entries { text += entry.account.string + "\n" }
                files += try NewFile.write(Array(text.utf8), to: output)
            case .googleQR:
                let export: GoogleMigrationExport
                do {
                    export = try GoogleMigrationExport(accounts: entries.map(\.account))
                } catch {
                    throw CommandFailure(error)
                }
                skipped = export.skipped.map(\.description)
                for (index, uri) in export.uris.enumerated() {
                    // Medium, not low: at low, zbar misread about 1 of 450 of these large codes in a
                    // stress run (export, zbarimg, import); at medium none of 600.
                    let code: QRCode
                    do { code = try QRCode(encoding: uri, errorCorrection: .medium) } catch { throw CommandFailure(error) }
                    if let output {
                        let png: [UInt8]
                        do { png = try code.pngData() } catch { throw CommandFailure(error) }
                        files += try NewFile.write(png, to: "\(output)-\(index + 1).png")
                    } else {
                        StandardStreams.writeOutput("Code \(index + 1) of \(export.uris.count):\n" + code.utf8String())
                    }
                }
                for line in skipped { StandardStreams.writeError("totp export: skipped \(line)\n") }
            }
            if json {
                var object = JSONObject()
                object.add("format", format.rawValue)
                object.add("accounts", entries.count - skipped.count)
                object.add("files", files)
                object.add("skipped", skipped)
                StandardStreams.writeOutput(object.text + "\n")
            }
        }

        /// An encrypted Aegis vault of `entries` under a new master key and the export password,
        /// at Aegis's scrypt cost (a phone opens it; the vault's own cost may be higher).
        static func aegisExport(_ entries: [VaultEntry], passwordFile: String?) throws(CommandFailure) -> [UInt8] {
            do throws(VaultError) {
                let password: VaultPassphrase
                if let passwordFile {
                    password = try PassphraseReader.read(path: passwordFile)
                } else {
                    password = try PassphraseReader.prompt("Password for the Aegis export: ", repeat: "Repeat the password: ")
                }
                let (envelope, masterKey) = try AegisEnvelope.create(credential: .passphrase(password), parameters: .aegisCompatible)
                var plaintext = try VaultContent(entries: entries).encoded()
                defer { _ = plaintext.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
                return try envelope.sealed(content: plaintext, masterKey: masterKey)
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}
