internal import OTPCore

/// A failure that `totp` reports as one line on standard error, with its exit status.
///
/// Messages never contain a secret: they name where a secret came from, never its value.
struct CommandFailure: Error, CustomStringConvertible {
    /// The one-line message, without a trailing period.
    let message: String
    /// The process exit status (sysexits.h values where one fits).
    let exitCode: Int32

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Bad input or a bad combination of options (`EX_USAGE`, as ArgumentParser's own usage errors).
    static func usage(_ message: String) -> CommandFailure { .init(message: message, exitCode: 64) }
    /// A code that is malformed or does not match.
    static func invalidCode(_ message: String) -> CommandFailure { .init(message: message, exitCode: 1) }
    /// A file that could not be read (`EX_NOINPUT`).
    static func noInput(_ message: String) -> CommandFailure { .init(message: message, exitCode: 66) }
    /// A file that could not be written (`EX_CANTCREAT`).
    static func cannotCreate(_ message: String) -> CommandFailure { .init(message: message, exitCode: 73) }
    /// Something that is not the user's fault, such as OpenSSL's random generator failing (`EX_SOFTWARE`).
    static func software(_ message: String) -> CommandFailure { .init(message: message, exitCode: 70) }

    /// Classifies an OTPCore error: malformed codes are invalid codes, OpenSSL failures are
    /// internal, everything else is bad input.
    init(_ error: OTPError, context: String? = nil) {
        let text = context.map { "\($0): \(error)" } ?? error.description
        switch error {
        case .invalidCodeLength, .invalidCodeCharacter:
            self = .invalidCode(text)
        case .cryptoFailure:
            self = .software(text)
        default:
            self = .usage(text)
        }
    }

    /// Runs `body`, which mixes OTPCore calls with its own failures, and reports whatever it
    /// throws as a `CommandFailure`: OTPCore errors classified as above, anything else as internal.
    static func reporting<Result>(_ body: () throws -> Result) throws(CommandFailure) -> Result {
        do {
            return try body()
        } catch let error as OTPError {
            throw CommandFailure(error)
        } catch let error as CommandFailure {
            throw error
        } catch {
            throw .software("\(error)")
        }
    }

    var description: String { message }
}
