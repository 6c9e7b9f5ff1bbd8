internal import ArgumentParser
internal import OTPCommandSupport
internal import OTPCore

extension TOTPTool {
    /// `totp verify CODE [SECRET]`: checks a code within a drift window.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a code.",
            discussion: """
                Exit status 0 and 'valid: offset +1 (counter N)' when the code matches a time step \
                within the window; exit status 1 and 'invalid code' when it does not. For HOTP the \
                window looks ahead of --counter only.
                """
        )

        @Argument(help: ArgumentHelp("The code to check.", valueName: "code"))
        var code: String

        @OptionGroup var options: OTPOptions

        @Option(help: ArgumentHelp("Accept codes up to n steps before or after the current one.", valueName: "n"))
        var window: Int = 1

        @Option(help: ArgumentHelp("Steps accepted before the current one (default: --window).", valueName: "n"))
        var behind: Int?

        @Option(help: ArgumentHelp("Steps accepted after the current one (default: --window).", valueName: "n"))
        var ahead: Int?

        @Flag(help: #"Print {"valid":true,"offset":N,"counter":N} or {"valid":false}."#)
        var json = false

        func run() throws {
            let generator = try options.generator()
            let match: (offset: Int, counter: UInt64)?
            do {
                match = try Self.match(code, generator: generator, behind: behind, ahead: ahead, window: window)
            } catch {
                if json { StandardStreams.writeOutput(#"{"valid":false}"# + "\n") }
                throw error
            }
            try Self.report(match, json: json)
        }

        /// The matched offset and counter, or `nil` when the code matches no step of the window.
        static func match(
            _ code: String, generator: Generator, behind: Int?, ahead: Int?, window: Int
        ) throws(CommandFailure) -> (offset: Int, counter: UInt64)? {
            try CommandFailure.reporting {
                let steps = try VerificationWindow(behind: behind ?? window, ahead: ahead ?? window)
                switch generator {
                case .totp(let totp, let time):
                    return try totp.verify(code, at: time, window: steps).map { ($0.offset, $0.step) }
                case .hotp(let hotp, let counter):
                    guard behind ?? 0 == 0 else {
                        throw CommandFailure.usage("HOTP verification looks ahead only: use --ahead or --window")
                    }
                    return try hotp.verify(code, counter: counter, lookAhead: steps.ahead).map { (Int($0 &- counter), $0) }
                }
            }
        }

        /// Prints the verdict; a code that does not match ends the process with status 1.
        static func report(_ match: (offset: Int, counter: UInt64)?, json: Bool) throws(ExitCode) {
            guard let match else {
                StandardStreams.writeOutput(json ? #"{"valid":false}"# + "\n" : "invalid code\n")
                throw ExitCode(ExitStatus.refused.rawValue)
            }
            if json {
                var object = JSONObject()
                object.add("valid", true)
                object.add("offset", match.offset)
                object.add("counter", match.counter)
                StandardStreams.writeOutput(object.text + "\n")
            } else {
                let offset = match.offset > 0 ? "+\(match.offset)" : "\(match.offset)"
                StandardStreams.writeOutput("valid: offset \(offset) (counter \(match.counter))\n")
            }
        }
    }
}
