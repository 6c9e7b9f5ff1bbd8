internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore
internal import OTPURI

extension TOTPTool {
    /// `totp uri`: reads and writes otpauth:// URIs.
    struct URI: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uri",
            abstract: "Inspect or make otpauth:// URIs.",
            subcommands: [Inspect.self, Make.self]
        )
    }
}

extension TOTPTool.URI {
    /// `totp uri inspect URI`: parses a URI and prints its fields.
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inspect",
            abstract: "Parse an otpauth:// URI and print its fields, secret included.",
            discussion: "Pass - to read the URI from standard input."
        )

        @Argument(help: ArgumentHelp("The otpauth:// URI, or - for standard input.", valueName: "uri"))
        var uri: String

        @Flag(help: "Reject what real-world apps tolerate: unescaped extra colons, padding, duplicates, mismatched issuers, ….")
        var strict = false

        @Flag(help: #"Print {"type":...,"issuer":...,"account":...,"secret":...,"algorithm":...,"digits":...,"period":...,"counter":...}."#)
        var json = false

        func run() throws {
            var text = uri
            if uri == "-" {
                text = String(Substring(String(decoding: try Console.read(path: nil), as: UTF8.self)).trimmingSpaces)
            }
            let parsed: OTPAuthURI
            do {
                parsed = try OTPAuthURI(parsing: text, mode: strict ? .strict : .lenient)
            } catch {
                throw CommandFailure.usage("invalid URI: \(error)")
            }
            if json {
                var object = JSONObject()
                object.add("type", parsed.kind.rawValue)
                object.add("issuer", parsed.issuer)
                object.add("account", parsed.accountName)
                object.add("secret", parsed.secret.base32)
                object.add("algorithm", parsed.algorithm.rawValue)
                object.add("digits", parsed.digits)
                object.add("period", parsed.period)
                object.add("counter", parsed.counter)
                StandardStreams.writeOutput(object.text + "\n")
                return
            }
            var lines = [
                ("type", parsed.kind.rawValue),
                ("issuer", parsed.issuer ?? "(none)"),
                ("account", parsed.accountName),
                ("secret", parsed.secret.base32),
                ("algorithm", parsed.algorithm.rawValue),
                ("digits", "\(parsed.digits)"),
            ]
            if let counter = parsed.counter {
                lines.append(("counter", "\(counter)"))
            } else {
                lines.append(("period", "\(parsed.period)"))
            }
            for parameter in parsed.additionalParameters {
                lines.append((parameter.name, parameter.value))
            }
            let width = lines.map(\.0.count).max() ?? 0
            StandardStreams.writeOutput(lines.map { "\($0.0):" + String(repeating: " ", count: width - $0.0.count + 1) + $0.1 + "\n" }.joined())
        }
    }

    /// `totp uri make`: builds a URI from its parts.
    struct Make: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "make",
            abstract: "Print an otpauth:// URI for a secret.",
            discussion: """
                --firebase prints exactly what Firebase's TOTPSecret.generateQRCodeURL builds \
                (issuer and algorithm always present, no period), escaped where Firebase's would be broken.
                """
        )

        @Option(help: ArgumentHelp("The Base32 secret, or - to read it from standard input.", valueName: "secret"))
        var secret: String

        @OptionGroup var key: KeyURIOptions

        @Flag(help: "An HOTP (counter-based) URI; needs --counter.")
        var hotp = false

        @Option(help: ArgumentHelp("The HOTP counter (implies --hotp).", valueName: "n"))
        var counter: UInt64?

        @Flag(help: "Print Firebase's generateQRCodeURL form.")
        var firebase = false

        func run() throws {
            var text = secret
            if secret == "-" {
                text = String(Substring(String(decoding: try Console.read(path: nil), as: UTF8.self)).trimmingSpaces)
            }
            let origin = secret == "-" ? "standard input" : "--secret"
            let decoded: OTPSecret
            do {
                decoded = try OTPSecret(base32: text)
            } catch {
                throw CommandFailure(error, context: "invalid secret (\(origin))")
            }
            if firebase {
                guard let issuer = key.issuer, !issuer.isEmpty else {
                    throw CommandFailure.usage("--firebase needs --issuer: Firebase always names one")
                }
                guard !hotp, counter == nil else { throw CommandFailure.usage("--firebase makes TOTP URIs only: drop --hotp and --counter") }
                guard key.period == 30 else { throw CommandFailure.usage("--firebase URIs carry no period (apps assume 30 s): drop --period") }
                guard HOTP.digitRange.contains(key.digits) else { throw CommandFailure(OTPError.invalidDigits(key.digits)) }
                StandardStreams.writeOutput(
                    OTPAuthURI.firebaseQRCodeURL(
                        sharedSecretKey: decoded.base32, accountName: key.account, issuer: issuer,
                        hashingAlgorithm: key.algorithm.rawValue, codeLength: key.digits) + "\n")
                return
            }
            if hotp && counter == nil { throw CommandFailure.usage("--hotp needs the counter: add --counter N") }
            do {
                let uri = try OTPAuthURI(
                    kind: hotp || counter != nil ? .hotp : .totp, issuer: key.issuer, accountName: key.account, secret: decoded,
                    algorithm: key.algorithm, digits: key.digits, period: key.period, counter: counter)
                StandardStreams.writeOutput(uri.string + "\n")
            } catch {
                throw CommandFailure.usage("\(error)")
            }
        }
    }
}
