/// Why the ID token signing keys could not be loaded, made or rotated. Messages name the file and what to
/// do, never key material.
public enum IDTokenKeyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file to rotate.
    case missing(path: String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not an otpkit-server signing key file, or was changed.
    case malformed(path: String)
    /// The sealing key given does not open the file.
    case wrongSealingKey(path: String)
    /// The new key could not be written.
    case unwritable(path: String, reason: String)
    /// The system could not make a new key (no randomness, or the RSA code failed).
    case keyGenerationFailed

    public var description: String {
        switch self {
        case .missing(let path):
            "there is no ID token signing key file \(path): start otpkit-server once to make it, or give the --signing-key-file it runs with"
        case .unreadable(let path, let reason):
            "cannot read the ID token signing key file \(path): \(reason); check that it is a file this user may read"
        case .malformed(let path):
            "\(path) is not an otpkit-server signing key file, or it was changed: restore it, or move it away to make a new key (tokens issued under the old one stop verifying)"
        case .wrongSealingKey(let path):
            "the sealing key does not open the ID token signing key \(path): give the sealing key (or --previous-key-file) the server ran with when that file was made or last rotated"
        case .unwritable(let path, let reason):
            "cannot write the ID token signing key file \(path): \(reason); check that its directory exists and is writable"
        case .keyGenerationFailed:
            "the system could not make an RSA signing key: check OpenSSL and the random number source"
        }
    }
}
