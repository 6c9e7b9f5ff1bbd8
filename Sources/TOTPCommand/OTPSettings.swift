internal import OTPCommandSupport
internal import OTPCore
internal import OTPURI

/// What `code` and `verify` were asked for: the secret source and the generator parameters.
///
/// ``OTPOptions`` fills it from ArgumentParser; ``FastPath`` fills it directly for the few
/// option-free shapes it handles, so both resolve secrets and report problems the same way.
struct OTPSettings {
    var secret: String? = nil
    var secretFile: String? = nil
    var uri: String? = nil
    var algorithm: OTPAlgorithm? = nil
    var digits: Int? = nil
    var period: Int64? = nil
    var time: String? = nil
    var hotp = false
    var counter: UInt64? = nil

    /// The environment variable read when no other secret source is given.
    static let environmentVariable = "TOTP_SECRET"

    /// Resolves the options into a generator, reading the secret from wherever it comes from.
    /// Options given explicitly override what an otpauth:// URI says.
    func generator() throws(CommandFailure) -> Generator {
        let (text, origin) = try secretText()
        if origin == "--uri" || OTPSettings.isURI(text) {
            let parsed: OTPAuthURI
            do {
                parsed = try OTPAuthURI(parsing: text)
            } catch {
                throw .usage("invalid URI (\(origin)): \(error)")
            }
            return try makeGenerator(
                secret: parsed.secret, algorithm: algorithm ?? parsed.algorithm, digits: digits ?? parsed.digits,
                period: period ?? parsed.period, counter: counter ?? parsed.counter)
        }
        let secret: OTPSecret
        do {
            secret = try OTPSecret(base32: text)
        } catch {
            throw CommandFailure(error, context: "invalid secret (\(origin))")
        }
        return try makeGenerator(
            secret: secret, algorithm: algorithm ?? .sha1, digits: digits ?? 6,
            period: period ?? 30, counter: counter)
    }

    /// Whether a secret source holds an otpauth:// URI rather than Base32.
    static func isURI(_ text: String) -> Bool {
        text.utf8.count > 10 && text.prefix(10).lowercased() == "otpauth://"
    }

    func makeGenerator(secret: OTPSecret, algorithm: OTPAlgorithm, digits: Int, period: Int64, counter: UInt64?) throws(CommandFailure) -> Generator {
        try CommandFailure.reporting {
            if hotp || counter != nil {
                guard let counter else {
                    throw CommandFailure.usage("--hotp needs the counter: add --counter N")
                }
                guard time == nil else {
                    throw CommandFailure.usage("--time applies to TOTP only: HOTP codes depend on --counter")
                }
                return .hotp(try HOTP(secret: secret, algorithm: algorithm, digits: digits), counter: counter)
            }
            let totp = try TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
            return .totp(totp, time: try unixTime())
        }
    }

    /// `--time` in Unix seconds, or the clock.
    func unixTime() throws(CommandFailure) -> Int64 {
        guard let time else { return TOTP.currentUnixTime() }
        if let seconds = Timestamp.parse(time) { return seconds }
        if Timestamp.lacksZone(time) {
            throw .usage("time '\(time)' has no time zone: add Z for UTC or an offset such as +01:00")
        }
        throw .usage("invalid time '\(time)': use Unix seconds or ISO 8601 such as 2005-03-18T01:58:29Z")
    }

    /// The secret's text and a description of where it came from (never the secret itself).
    func secretText() throws(CommandFailure) -> (text: String, origin: String) {
        var sources: [String] = []
        if secret != nil { sources.append(secret == "-" ? "-" : "SECRET") }
        if secretFile != nil { sources.append("--secret-file") }
        if uri != nil { sources.append("--uri") }
        guard sources.count <= 1 else {
            throw .usage("give the secret one way, not with \(sources.joined(separator: " and "))")
        }
        let text: String
        let origin: String
        if let uri {
            text = uri
            origin = "--uri"
        } else if let secretFile {
            text = String(decoding: try Console.read(path: secretFile), as: UTF8.self)
            origin = "file '\(secretFile)'"
        } else if secret == "-" {
            text = String(decoding: try Console.read(path: nil), as: UTF8.self)
            origin = "standard input"
        } else if let secret {
            text = secret
            origin = "argument"
        } else if let value = Console.environment(Self.environmentVariable) {
            text = value
            origin = Self.environmentVariable
        } else {
            throw .usage(
                "missing secret: pass it as an argument, with --secret-file FILE or --uri URI, as - on standard input, or in \(Self.environmentVariable)"
            )
        }
        let trimmed = String(Substring(text).trimmingSpaces)
        guard !trimmed.isEmpty else { throw .usage("the secret (\(origin)) is empty") }
        return (trimmed, origin)
    }
}
