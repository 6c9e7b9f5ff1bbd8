internal import ArgumentParser
internal import OTPCommandSupport

extension TOTPTool {
    /// `totp qr TEXT`: draws any text, normally an otpauth:// URI, as a QR code.
    struct QR: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "qr",
            abstract: "Draw text (normally an otpauth:// URI) as a QR code.",
            discussion: "Pass - to read the text from standard input, so that a URI with its secret stays out of the process list."
        )

        @Argument(help: ArgumentHelp("The text to encode, or - for standard input.", valueName: "text"))
        var text: String

        @OptionGroup var qr: QROptions

        func run() throws {
            var content = text
            if text == "-" {
                content = String(decoding: try Console.read(path: nil), as: UTF8.self)
                // A trailing line break from `echo` or a file is not part of the URI.
                while content.last?.isNewline == true { content.removeLast() }
            }
            StandardStreams.writeOutput(try qr.render(content, drawByDefault: true))
        }
    }
}
