internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore
internal import OTPURI

/// The secret sources and generator parameters shared by `code` and `verify`.
struct OTPOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The Base32 secret, or - to read it from standard input (default: $TOTP_SECRET).",
            valueName: "secret"))
    var secret: String?

    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp("Read the secret (Base32 or an otpauth:// URI) from a file.", valueName: "file"),
        completion: .file())
    var secretFile: String?

    @Option(
        help: ArgumentHelp(
            "An otpauth:// URI: supplies the secret, algorithm, digits, period and (HOTP) counter.",
            valueName: "uri"))
    var uri: String?

    @Option(
        help: ArgumentHelp("The HMAC hash function: \(OTPAlgorithm.names(lowercased: true)) (default: sha1).", valueName: "algorithm"),
        completion: OTPAlgorithm.completion, transform: OTPAlgorithm.argument)
    var algorithm: OTPAlgorithm?

    @Option(help: ArgumentHelp("The number of digits, \(HOTP.digitRange.lowerBound) to \(HOTP.digitRange.upperBound) (default: 6).", valueName: "n"))
    var digits: Int?

    @Option(help: ArgumentHelp("The time step in seconds (default: 30).", valueName: "seconds"))
    var period: Int64?

    @Option(
        help: ArgumentHelp(
            "The time: Unix seconds or ISO 8601 such as 2005-03-18T01:58:29Z (default: now).",
            valueName: "time"))
    var time: String?

    @Flag(help: "Counter-based codes (HOTP, RFC 4226) instead of time-based ones; needs --counter.")
    var hotp = false

    @Option(help: ArgumentHelp("The HOTP counter (implies --hotp).", valueName: "n"))
    var counter: UInt64?

    /// The options as plain values, for ``OTPSettings/generator()``.
    var settings: OTPSettings {
        OTPSettings(
            secret: secret, secretFile: secretFile, uri: uri, algorithm: algorithm, digits: digits,
            period: period, time: time, hotp: hotp, counter: counter)
    }

    /// Resolves the options into a generator, reading the secret from wherever it comes from.
    func generator() throws(CommandFailure) -> Generator {
        try settings.generator()
    }
}

extension OTPAlgorithm {
    /// Parses `--algorithm` (any case, with or without a hyphen).
    static func argument(_ text: String) throws -> OTPAlgorithm {
        guard let algorithm = OTPAlgorithm(name: text) else {
            throw ValidationError("use \(OTPAlgorithm.names(lowercased: true))")
        }
        return algorithm
    }

    static let completion = CompletionKind.list(allCases.map { $0.rawValue.lowercased() })
}
