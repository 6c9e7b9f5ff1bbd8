internal import ArgumentParser
internal import OTPCore
internal import OTPURI

extension TOTPTool {
    /// `totp new`: a fresh secret, its otpauth:// URI and the QR code to scan.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Generate a secret and show its otpauth:// URI and QR code.",
            discussion: """
                The secret comes from OpenSSL's random generator: 20 bytes for SHA-1, 32 for SHA-256, \
                64 for SHA-512 unless --bytes says otherwise. Scan the QR code with an authenticator \
                app; the current code printed last should match the app's.
                """
        )

        @Option(help: ArgumentHelp("The service the account belongs to, shown by authenticator apps.", valueName: "name"))
        var issuer: String?

        @Option(help: ArgumentHelp("The account, usually a user name or an email address.", valueName: "name"))
        var account: String

        @Option(help: ArgumentHelp("The HMAC hash function: sha1, sha256 or sha512.", valueName: "algorithm"),
                completion: OTPAlgorithm.completion, transform: OTPAlgorithm.argument)
        var algorithm: OTPAlgorithm = .sha1

        @Option(help: ArgumentHelp("The number of digits, 6 to 10.", valueName: "n"))
        var digits: Int = 6

        @Option(help: ArgumentHelp("The time step in seconds.", valueName: "seconds"))
        var period: Int64 = 30

        @Option(help: ArgumentHelp("The secret length in bytes, 10 to 1024 (default: the algorithm's digest size).", valueName: "n"))
        var bytes: Int?

        @OptionGroup var qr: QROptions

        @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.")
        var noQR = false

        @Flag(help: #"Print {"secret":"...","uri":"..."} and no drawing."#)
        var json = false

        func run() throws {
            guard !account.isEmpty else { throw CommandFailure.usage("--account must not be empty") }
            let secret: OTPSecret
            let totp: TOTP
            do {
                secret = try OTPSecret.random(byteCount: bytes ?? algorithm.recommendedSecretByteCount)
                totp = try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
            } catch {
                throw CommandFailure(error)
            }
            let uri: String
            do {
                uri = try OTPAuthURI(issuer: issuer, accountName: account, secret: secret,
                                     algorithm: algorithm, digits: digits, period: period).string
            } catch {
                throw CommandFailure.usage("\(error)")
            }
            let rendered = try qr.render(uri, drawByDefault: !noQR && !json)
            let drawing = noQR ? "" : rendered
            if json {
                var object = JSONObject()
                object.add("secret", secret.base32)
                object.add("uri", uri)
                Console.writeOutput(object.text + "\n")
                return
            }
            let code = try totp.code(at: TOTP.currentUnixTime())
            Console.writeOutput("""
                secret: \(secret.base32)
                uri:    \(uri)
                \(drawing.isEmpty ? "" : "\n" + drawing + "\n")code:   \(code) (now; `totp code SECRET` shows it again)

                """)
        }
    }
}
