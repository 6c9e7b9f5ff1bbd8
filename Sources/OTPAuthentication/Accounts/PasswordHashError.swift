/// Why a password could not be hashed. Never carries the password or a hash.
public enum PasswordHashError: Error, Hashable, Sendable, CustomStringConvertible {
    /// scrypt parameters outside ``PasswordHashParameters``' ranges.
    case parametersOutOfRange(logN: Int, r: Int, p: Int)
    /// OpenSSL failed to produce random bytes or to derive the key.
    case cryptoFailure(String)
    /// A hash brought by an import has a part this hasher does not take; the text says which.
    case unusableImport(String)
    /// A Firebase project's hash parameters (``FirebaseHashConfig``) are missing a part or have
    /// one out of range; the text says which.
    case invalidFirebaseHashConfig(String)

    /// A one-line message.
    public var description: String {
        switch self {
        case .parametersOutOfRange(let logN, let r, let p):
            "scrypt parameters ln=\(logN), r=\(r), p=\(p) are out of range: ln must be \(PasswordHashParameters.logNRange.lowerBound) to \(PasswordHashParameters.logNRange.upperBound), r \(PasswordHashParameters.rRange.lowerBound) to \(PasswordHashParameters.rRange.upperBound), p \(PasswordHashParameters.pRange.lowerBound) to \(PasswordHashParameters.pRange.upperBound)"
        case .cryptoFailure(let what):
            "OpenSSL failure while hashing a password: \(what)"
        case .unusableImport(let what):
            "the imported password hash has \(what)"
        case .invalidFirebaseHashConfig(let what):
            "the Firebase password hash parameters have \(what)"
        }
    }
}
