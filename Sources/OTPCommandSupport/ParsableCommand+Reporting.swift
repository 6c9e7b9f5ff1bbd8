package import ArgumentParser
internal import Glibc

extension ParsableCommand {
    /// Ends the process after `error`, thrown while parsing or running a command, the way both
    /// tools answer: help, version and completion scripts on standard output with status 0;
    /// anything else as one line `command: message` on standard error with its status, rather
    /// than ArgumentParser's usage dump, which buries the message in scripts.
    ///
    /// - Parameters:
    ///   - command: The name in front of the message (`totp code`).
    ///   - redacting: Rewrites ArgumentParser's own messages before they are printed (`totp`
    ///     hides arguments that read as secrets).
    package static func exitReporting(
        _ error: any Error,
        command: String,
        redacting: (String) -> String = { $0 }
    ) -> Never {
        if let failure = error as? CommandFailure {
            StandardStreams.exit(reporting: failure, command: command)
        }
        let status = exitCode(for: error)
        if status == .success {
            StandardStreams.writeOutput(fullMessage(for: error) + "\n")
        } else {
            let message = redacting(message(for: error))
            if !message.isEmpty { StandardStreams.reportFailure(message, command: command) }
        }
        Glibc.exit(status.rawValue)
    }

    /// `root` followed by the names of the subcommands the arguments select (`totp uri make`),
    /// for error messages.
    package static func commandPath(for arguments: [String], root: String) -> String {
        var names = [root]
        var command: any ParsableCommand.Type = self
        for argument in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { break }
            names.append(argument)
            command = next
        }
        return names.joined(separator: " ")
    }
}
