internal import Foundation
internal import Glibc
internal import Logging
internal import OTPCommandSupport
internal import OTPAuthentication
internal import OTPSMS

extension SMSOptions {
    /// The sender the options choose, or ``UnconfiguredSMSSender`` when none was given.
    func sender() throws(CommandFailure) -> any SMSSender {
        // The senders log a failed send at warning level; the command reports it as its own one
        // line, so their logs would only repeat it.
        var quiet = Logger(label: "OTPKit.totp-enrollment.sms")
        quiet.logLevel = .error
        // Untyped: the senders throw SMSSendError, and finding the program or the token CommandFailure.
        do {
            if let command {
                let program = try Self.programPath(command)
                // The message on standard input by default: as an argument, local users could read it.
                let templates = commandArguments.isEmpty ? ["{to}"] : commandArguments
                return try CommandSMSSender(
                    executable: program, arguments: templates.map(CommandSMSSender.Argument.init(template:)),
                    passedEnvironment: commandEnvironment, logger: quiet)
            }
            if let webhook {
                return try WebhookSMSSender(url: webhook, headers: try webhookHeaderFields(), logger: quiet)
            }
            if let twilioAccount, let from {
                let credentials = TwilioSMSSender.Credentials.authToken(accountSID: twilioAccount, authToken: try twilioToken())
                // Messaging service SIDs start with MG; anything else is a number or a sender id.
                let origin: TwilioSMSSender.Origin = from.hasPrefix("MG") ? .messagingService(from) : .phoneNumber(from)
                return try TwilioSMSSender(
                    credentials: credentials, origin: origin, baseURL: twilioBaseURL ?? TwilioSMSSender.twilioBaseURL, logger: quiet)
            }
        } catch let error as SMSSendError {
            throw CommandFailure(error)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw .software("\(error)")
        }
        if log {
            var logger = Logger(label: "totp-enrollment.sms-log", factory: { StreamLogHandler.standardError(label: $0) })
            logger.logLevel = .notice
            return LogSMSSender(logger: logger)
        }
        return UnconfiguredSMSSender()
    }

    /// The `--sms-header` values; `validate()` has checked their form already.
    private func webhookHeaderFields() throws(CommandFailure) -> [(name: String, value: String)] {
        do {
            return try headers()
        } catch {
            throw .usage(error.message)
        }
    }

    /// The auth token from `--sms-twilio-token-file` or the environment: never an argument, which
    /// every user of the machine could read in the process list.
    private func twilioToken() throws(CommandFailure) -> String {
        let token: String
        if let twilioTokenFile {
            guard let data = FileManager.default.contents(atPath: twilioTokenFile), let text = String(data: data, encoding: .utf8) else {
                throw .noInput("cannot read the Twilio auth token file \(twilioTokenFile)")
            }
            token = text
        } else {
            token = ProcessInfo.processInfo.environment[Self.twilioTokenVariable] ?? ""
        }
        let trimmed = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw .noInput("no Twilio auth token: pass --sms-twilio-token-file FILE or set \(Self.twilioTokenVariable)")
        }
        return trimmed
    }

    /// The absolute path of `program`: as given when absolute, from the working directory when it
    /// names a directory, else the first executable of that name in `PATH`, as a shell finds it.
    /// (The sender itself takes only absolute paths, as a server's working directory is arbitrary;
    /// a person at a terminal expects `./send-sms` and `gammu-smsd-inject` to work.)
    static func programPath(_ program: String) throws(CommandFailure) -> String {
        if program.hasPrefix("/") { return program }
        if program.contains("/") { return FileManager.default.currentDirectoryPath + "/" + program }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 {
                return candidate.hasPrefix("/") ? candidate : FileManager.default.currentDirectoryPath + "/" + candidate
            }
        }
        throw .usage("--sms-command: no program \(program) in PATH: give its path")
    }
}
