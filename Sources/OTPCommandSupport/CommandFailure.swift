/// A failure that `totp` and `totp-enrollment` report as one line on standard error (`totp
/// COMMAND: message`) before exiting with its status.
///
/// Messages never contain a secret: they name where a secret came from, never its value.
package struct CommandFailure: Error, CustomStringConvertible, Sendable {
    /// The one-line message, without a trailing period.
    package let message: String
    /// What the process exits with.
    package let status: ExitStatus

    /// A failure with `message`, ending the process with `status`.
    package init(message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// The process exit status.
    package var exitCode: Int32 { status.rawValue }

    /// The message, as printed after `totp COMMAND: `.
    package var description: String { message }

    /// A code that is wrong, malformed or refused.
    package static func refused(_ message: String) -> CommandFailure { .init(message: message, status: .refused) }
    /// Bad input or a bad combination of options, as ArgumentParser's own usage errors.
    package static func usage(_ message: String) -> CommandFailure { .init(message: message, status: .usage) }
    /// A file that is not what it claims: damaged, unrecognized, holding no account.
    package static func dataError(_ message: String) -> CommandFailure { .init(message: message, status: .dataError) }
    /// An input file that could not be read.
    package static func noInput(_ message: String) -> CommandFailure { .init(message: message, status: .noInput) }
    /// A companion program that could not be run.
    package static func unavailable(_ message: String) -> CommandFailure { .init(message: message, status: .unavailable) }
    /// Something that is not the user's fault, such as OpenSSL's random generator failing.
    package static func software(_ message: String) -> CommandFailure { .init(message: message, status: .software) }
    /// An output file that could not be written.
    package static func cannotCreate(_ message: String) -> CommandFailure { .init(message: message, status: .cannotCreate) }
    /// A database or other I/O failure.
    package static func ioError(_ message: String) -> CommandFailure { .init(message: message, status: .ioError) }
}
