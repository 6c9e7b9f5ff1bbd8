internal import ArgumentParser
internal import OTPCore

/// What `totp new` and `totp uri make` put into an otpauth:// URI besides the secret.
struct KeyURIOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The service the account belongs to, shown by authenticator apps.", valueName: "name"))
    var issuer: String?

    @Option(help: ArgumentHelp("The account, usually a user name or an email address.", valueName: "name"))
    var account: String

    @Option(
        help: ArgumentHelp("The HMAC hash function: \(OTPAlgorithm.names(lowercased: true)).", valueName: "algorithm"),
        completion: OTPAlgorithm.completion, transform: OTPAlgorithm.argument)
    var algorithm: OTPAlgorithm = .sha1

    @Option(help: ArgumentHelp("The number of digits, \(HOTP.digitRange.lowerBound) to \(HOTP.digitRange.upperBound).", valueName: "n"))
    var digits: Int = 6

    @Option(help: ArgumentHelp("The time step in seconds.", valueName: "seconds"))
    var period: Int64 = 30
}
