internal import ArgumentParser
internal import OTPCommandSupport
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

        @OptionGroup var key: KeyURIOptions

        @Option(help: ArgumentHelp("The secret length in bytes, 10 to 1024 (default: the algorithm's digest size).", valueName: "n"))
        var bytes: Int?

        @OptionGroup var qr: QROptions

        @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.")
        var noQR = false

        @Flag(help: #"Print {"secret":"...","uri":"..."} and no drawing."#)
        var json = false

        func run() throws {
            guard !key.account.isEmpty else { throw CommandFailure.usage("--account must not be empty") }
            let secret: OTPSecret
            let totp: TOTP
            do {
                secret = try OTPSecret.random(byteCount: bytes ?? key.algorithm.recommendedSecretByteCount)
                totp = try TOTP(secret: secret, algorithm: key.algorithm, digits: key.digits, period: key.period)
            } catch {
                throw CommandFailure(error)
            }
            let uri: String
            do {
                uri = try OTPAuthURI(
                    issuer: key.issuer, accountName: key.account, secret: secret,
                    algorithm: key.algorithm, digits: key.digits, period: key.period
                ).string
            } catch {
                throw CommandFailure.usage("\(error)")
            }
            let rendered = try qr.render(uri, drawByDefault: !noQR && !json)
            let drawing = noQR ? "" : rendered
            if json {
                var object = JSONObject()
                object.add("secret", secret.base32)
                object.add("uri", uri)
                StandardStreams.writeOutput(object.text + "\n")
                return
            }
            let code = try totp.code(at: TOTP.currentUnixTime())
            StandardStreams.writeOutput(
                """
                secret: \(secret.base32)
                uri:    \(uri)
                \(drawing.isEmpty ? "" : "\n" + drawing + "\n")code:   \(code) (now; `totp code SECRET` shows it again)

                """)
        }
    }
}
