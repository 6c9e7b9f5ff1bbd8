internal import Glibc
internal import OTPCore

/// Standard output and standard error of both command-line tools.
///
/// Results go to standard output; failures, prompts and notes to standard error, so that a script
/// reading standard output gets results only.
package enum StandardStreams {
    /// Whether `descriptor` is a terminal (rather than a pipe or a file).
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether standard output is a terminal.
    package static var outputIsTerminal: Bool { isTerminal(STDOUT_FILENO) }

    /// Writes `text` whole to standard output.
    package static func writeOutput(_ text: String) { write(text, to: .standardOutput) }

    /// Writes `text` whole to standard error.
    package static func writeError(_ text: String) { write(text, to: .standardError) }

    /// Prints `command: message` on standard error as a single line, whatever line breaks the
    /// message contains, since scripts read the first line of standard error only.
    package static func reportFailure(_ message: String, command: String) {
        let oneLine = message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.joined(separator: " ")
        writeError("\(command): \(oneLine)\n")
    }

    /// Reports `failure` as ``reportFailure(_:command:)`` does and exits with its status.
    package static func exit(reporting failure: CommandFailure, command: String) -> Never {
        reportFailure(failure.message, command: command)
        exit(failure.status)
    }

    /// Ends the process with `status`.
    package static func exit(_ status: ExitStatus) -> Never {
        Glibc.exit(status.rawValue)
    }

    private static func write(_ text: String, to stream: POSIXFile) {
        var text = text
        text.withUTF8 { buffer in
            // A closed pipe or a full disk leaves nothing to report to: standard error may be
            // the stream that failed, and the exit status already tells the outcome.
            try? stream.writeAll(UnsafeRawBufferPointer(buffer))
        }
    }
}
