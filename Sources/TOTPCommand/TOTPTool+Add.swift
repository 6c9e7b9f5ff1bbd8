internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore
internal import OTPURI
internal import OTPVault

extension TOTPTool {
    /// `totp add`: puts accounts in the vault, creating it with the credential given the first time.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an account to the vault (created on first use).",
            discussion: """
                Give an otpauth:// URI, - to read URIs from standard input (one a line), the \
                account by parts with --secret, --issuer and --account, or QR code images with \
                --qr IMAGE… (runs totp-transfer). An account already in the \
                vault (same secret, issuer and name) is reported and not added twice. --secret \
                puts the secret in the process list: prefer --secret - (standard input).
                """
        )

        @Argument(help: ArgumentHelp("An otpauth:// URI, or - to read URIs from standard input.", valueName: "uri"))
        var uri: String?

        @Option(help: ArgumentHelp("The Base32 secret, or - to read it from standard input.", valueName: "base32"))
        var secret: String?

        @Option(help: ArgumentHelp("The issuer (service), such as GitHub.", valueName: "issuer"))
        var issuer: String?

        @Option(help: ArgumentHelp("The account name, such as alice@example.com.", valueName: "name"))
        var account: String?

        @Flag(help: "A counter-based (HOTP) account; the counter is the next code's (default 0).")
        var hotp = false

        @Option(help: ArgumentHelp("The HOTP counter of the next code (implies --hotp).", valueName: "n"))
        var counter: UInt64?

        @Option(help: ArgumentHelp("The number of digits (default: 6).", valueName: "n"))
        var digits: Int = OTPAuthURI.defaultDigits

        @Option(help: ArgumentHelp("The time step in seconds (default: 30).", valueName: "seconds"))
        var period: Int64 = OTPAuthURI.defaultPeriod

        @Option(
            help: ArgumentHelp("The HMAC hash function: \(OTPAlgorithm.names(lowercased: true)) (default: sha1).", valueName: "algorithm"),
            completion: OTPAlgorithm.completion, transform: OTPAlgorithm.argument)
        var algorithm: OTPAlgorithm = .sha1

        @Flag(help: "Print a JSON object: the accounts added and those already there.")
        var json = false

        @Option(
            name: .customLong("qr"), parsing: .upToNextOption,
            help: ArgumentHelp("Add the accounts in these QR code images (PNG or JPEG; runs totp-transfer).", valueName: "image"),
            completion: .file())
        var images: [String] = []

        @OptionGroup var vaultOptions: VaultOptions

        func validate() throws {
            if secret != nil {
                guard uri == nil else { throw ValidationError("give a URI or --secret, not both") }
                guard account != nil else { throw ValidationError("--secret needs --account NAME (and usually --issuer)") }
            } else {
                guard uri != nil else { throw ValidationError("give an otpauth:// URI, - for URIs on standard input, or --secret with --account") }
                guard issuer == nil, account == nil, !hotp, counter == nil else {
                    throw ValidationError("--issuer, --account, --hotp and --counter describe an account given by --secret")
                }
            }
        }

        func run() throws {
            let accounts = try accountsToAdd()
            let addition = try vaultOptions.update(createIfMissing: true) { (content: inout VaultContent) throws(VaultError) in
                try content.add(accounts)
            }
            let added = addition.added
            let duplicates = addition.duplicates.map(VaultEntry.label(of:))
            if json {
                var object = JSONObject()
                object.add("added", json: JSONObject.array(added.map(VaultAccess.json)))
                object.add("duplicates", duplicates)
                StandardStreams.writeOutput(object.text + "\n")
                return
            }
            var text = ""
            for entry in added { text += "added \(entry.label)\n" }
            for label in duplicates { text += "already in the vault: \(label)\n" }
            StandardStreams.writeOutput(text)
        }

        /// The accounts the arguments describe, read and checked before the vault is touched.
        func accountsToAdd() throws(CommandFailure) -> [OTPAuthURI] {
            if let secret {
                let text = secret == "-" ? String(decoding: try Console.read(path: nil), as: UTF8.self) : secret
                return try CommandFailure.reporting {
                    let decoded: OTPSecret
                    do throws(OTPError) {
                        decoded = try OTPSecret(base32: String(Substring(text).trimmingSpaces))
                    } catch {
                        throw CommandFailure(error, context: "invalid secret (\(secret == "-" ? "standard input" : "--secret"))")
                    }
                    let isHOTP = hotp || counter != nil
                    do {
                        return [
                            try OTPAuthURI(
                                kind: isHOTP ? .hotp : .totp, issuer: issuer, accountName: account ?? "", secret: decoded,
                                algorithm: algorithm, digits: digits, period: period, counter: isHOTP ? (counter ?? 0) : nil)
                        ]
                    } catch {
                        throw CommandFailure.usage("\(error)")
                    }
                }
            }
            let lines: [String]
            let origin: String
            if uri == "-" {
                lines = String(decoding: try Console.read(path: nil), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
                origin = "standard input"
            } else {
                lines = [uri ?? ""]
                origin = "argument"
            }
            var accounts: [OTPAuthURI] = []
            for (number, line) in lines.enumerated() {
                let text = Substring(line).trimmingSpaces
                if text.isEmpty || text.hasPrefix("#") { continue }
                do {
                    accounts.append(try OTPAuthURI(parsing: String(text)))
                } catch {
                    let place = origin == "argument" ? "the URI" : "line \(number + 1) of \(origin)"
                    throw .usage("\(place) is not a valid otpauth:// URI: \(error)")
                }
            }
            guard !accounts.isEmpty else { throw .usage("no otpauth:// URI on \(origin)") }
            return accounts
        }
    }
}
