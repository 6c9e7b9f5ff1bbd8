package import OTPCore

extension CommandFailure {
    /// Classifies an OTPCore error: malformed codes are refused codes, OpenSSL failures are
    /// internal, everything else is bad input.
    package init(_ error: OTPError, context: String? = nil) {
        let text = context.map { "\($0): \(error)" } ?? error.description
        switch error {
        case .invalidCodeLength, .invalidCodeCharacter:
            self = .refused(text)
        case .cryptoFailure:
            self = .software(text)
        default:
            self = .usage(text)
        }
    }

    /// Runs `body`, which mixes OTPCore calls with its own failures, and reports whatever it
    /// throws as a `CommandFailure`: OTPCore errors classified as above, anything else as internal.
    package static func reporting<Result>(_ body: () throws -> Result) throws(CommandFailure) -> Result {
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
}

extension CommandFailure {
    /// A bounded read of `source` that failed: one it cannot read is `noInput`, one past the
    /// bound `dataError` saying `tooLarge`.
    package init(_ error: POSIXFile.ContentsFailure, reading source: String, tooLarge: String) {
        switch error {
        case .unreadable(let failure): self = .noInput("cannot read \(source): \(failure)")
        case .tooLarge: self = .dataError(tooLarge)
        }
    }
}
