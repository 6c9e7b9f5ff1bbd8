/// The exit statuses of `totp` and `totp-enrollment`: sysexits.h values where one fits, so both
/// tools answer a script the same way.
package enum ExitStatus: Int32, Sendable {
    /// Done.
    case success = 0
    /// A code that is wrong, malformed or refused (`totp verify`, `totp signin`).
    case refused = 1
    /// Bad input or usage (`EX_USAGE`, ArgumentParser's own usage status).
    case usage = 64
    /// A file that is not what it should be: a damaged, tampered or malformed vault (`EX_DATAERR`).
    case dataError = 65
    /// An input file that cannot be read (`EX_NOINPUT`).
    case noInput = 66
    /// A companion program that is missing (`EX_UNAVAILABLE`).
    case unavailable = 69
    /// An internal failure (`EX_SOFTWARE`).
    case software = 70
    /// An output file that was not written (`EX_CANTCREAT`).
    case cannotCreate = 73
    /// A database or other I/O failure (`EX_IOERR`).
    case ioError = 74
    /// Try again later: the vault is locked by another process (`EX_TEMPFAIL`).
    case temporaryFailure = 75
    /// A passphrase or key file that does not open the vault (`EX_NOPERM`).
    case noPermission = 77
}
