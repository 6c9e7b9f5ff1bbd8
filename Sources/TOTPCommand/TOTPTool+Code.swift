internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore

extension TOTPTool {
    /// `totp code`: prints the current code.
    struct Code: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "code",
            abstract: "Print the current code.",
            discussion: """
                When standard output is not a terminal, prints exactly the code and a newline. On a \
                terminal it also shows the seconds left in the time step.

                With --name, or a SECRET that is not a valid Base32 secret, the account comes from \
                the vault (as with totp NAME); printing an HOTP account's code stores its next \
                counter first, and --counter N resynchronizes it.
                """
        )

        @OptionGroup var options: OTPOptions

        @Option(
            name: .customLong("name"),
            help: ArgumentHelp("An account in the vault: issuer, account name or issuer:account.", valueName: "name"))
        var accountName: String?

        @OptionGroup var vaultOptions: VaultOptions

        @Option(help: ArgumentHelp("Also print the n codes that follow.", valueName: "n"))
        var next: Int = 0

        @Flag(help: "Keep printing the code as it changes until interrupted.")
        var watch = false

        @Flag(help: "Print a JSON object: code, counter, period, validFrom, validUntil, secondsRemaining.")
        var json = false

        func validate() throws {
            guard (0...1_000).contains(next) else { throw ValidationError("--next must be 0 to 1000") }
            if watch {
                guard options.time == nil else { throw ValidationError("--watch follows the clock: drop --time") }
                guard !options.hotp, options.counter == nil else { throw ValidationError("--watch applies to TOTP only") }
            }
        }

        /// The vault account the invocation names, if it names one rather than a secret.
        var vaultAccountName: String? {
            if let accountName { return accountName }
            guard let secret = options.secret, secret != "-", options.secretFile == nil, options.uri == nil,
                !OTPSettings.isURI(secret), (try? OTPSecret(base32: secret)) == nil,
                // Without a vault, a bad secret is reported as one.
                vaultOptions.vault.file.exists
            else { return nil }
            return secret
        }

        func run() throws {
            let generator: Generator
            if let name = vaultAccountName {
                guard options.secret == nil || accountName == nil else { throw CommandFailure.usage("give --name or a secret, not both") }
                generator = try VaultAccess.generator(
                    named: name, options: vaultOptions, counter: options.counter, time: try options.settings.unixTime())
            } else {
                generator = try options.generator()
            }
            let terminal = StandardStreams.outputIsTerminal
            guard watch else {
                StandardStreams.writeOutput(try Self.output(generator, next: next, json: json, terminal: terminal))
                return
            }
            guard case .totp(let totp, _) = generator else {
                throw CommandFailure.usage("--watch applies to TOTP only")
            }
            Console.stopOnInterrupt(finishingLine: terminal)
            var shownLines = 0
            var lastStep: UInt64?
            while true {
                let now = TOTP.currentUnixTime()
                let step = try totp.step(at: now)
                if terminal {
                    // Redraw in place: back to the first line of the previous drawing, clear below.
                    let rewind = shownLines > 1 ? "\u{1B}[\(shownLines - 1)A" : ""
                    let text = try Self.output(.totp(totp, time: now), next: next, json: json, terminal: true)
                    StandardStreams.writeOutput("\r" + rewind + "\u{1B}[J" + text.dropLast())
                    shownLines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
                } else if step != lastStep {
                    StandardStreams.writeOutput(try Self.output(.totp(totp, time: now), next: next, json: json, terminal: false))
                }
                lastStep = step
                Console.sleepToNextSecond()
            }
        }

        /// Everything the command prints for one moment, each line ending in a newline.
        static func output(_ generator: Generator, next: Int, json: Bool, terminal: Bool) throws(CommandFailure) -> String {
            switch generator {
            case .hotp(let hotp, let counter):
                let codes = (0...UInt64(next)).map { hotp.code(counter: counter &+ $0) }
                if json {
                    var object = JSONObject()
                    object.add("code", codes[0])
                    object.add("counter", counter)
                    if next > 0 { object.add("next", Array(codes.dropFirst())) }
                    return object.text + "\n"
                }
                guard terminal else { return lines(codes) }
                return lines(codes.enumerated().map { "\($1)  counter \(counter &+ UInt64($0))" })

            case .totp(let totp, let time):
                let step: UInt64
                do { step = try totp.step(at: time) } catch { throw CommandFailure(error) }
                let codes = (0...UInt64(next)).map { totp.code(step: step &+ $0) }
                let validFrom = totp.startOfStep(step)
                let validUntil = validFrom &+ totp.period
                let remaining = validUntil &- time
                if json {
                    var object = JSONObject()
                    object.add("code", codes[0])
                    object.add("counter", step)
                    object.add("period", totp.period)
                    object.add("validFrom", Timestamp.format(validFrom))
                    object.add("validUntil", Timestamp.format(validUntil))
                    object.add("secondsRemaining", remaining)
                    if next > 0 { object.add("next", Array(codes.dropFirst())) }
                    return object.text + "\n"
                }
                guard terminal else { return lines(codes) }
                var lines = ["\(codes[0])  \(countdownBar(remaining: remaining, period: totp.period)) \(remaining)s"]
                for (index, code) in codes.enumerated().dropFirst() {
                    lines.append("\(code)  in \(remaining &+ Int64(index - 1) &* totp.period)s")
                }
                return Self.lines(lines)
            }
        }

        /// Each string followed by a line feed. A plain loop: `joined()` instantiates generic
        /// metadata at run time, a measurable share of `totp code`'s start-up.
        static func lines(_ strings: [String]) -> String {
            var text = ""
            for string in strings {
                text += string
                text += "\n"
            }
            return text
        }

        /// Ten cells, filled for the share of the time step that is left.
        static func countdownBar(remaining: Int64, period: Int64) -> String {
            let cells: Int64 = 10
            let filled = Int((remaining * cells + period - 1) / period)
            return String(repeating: "█", count: filled) + String(repeating: "░", count: Int(cells) - filled)
        }
    }
}
