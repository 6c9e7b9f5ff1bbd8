/// Why the ID token signing keys could not be loaded, made or rotated. Messages name the file and what to
/// do, never key material.
public enum IDTokenKeyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file to rotate.
    case missing(path: String)
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not an otpkit-server signing key file, or was changed.
    case malformed(path: String)
    /// A key in the file signs with an algorithm this version does not know: a newer
    /// otpkit-server wrote it.
    case unknownAlgorithm(path: String, kid: String, algorithm: String)
    /// The file is in a format this version does not know: a newer otpkit-server wrote it.
    case newerFormat(path: String, format: String)
    /// The sealing key given does not open the file.
    case wrongSealingKey(path: String)
    /// The new key could not be written.
    case unwritable(path: String, reason: String)
    /// The system could not make a new key (no randomness, or the RSA or ECDSA code failed).
    case keyGenerationFailed

    public var description: String {
        switch self {
        case .missing(let path):
            "there is no ID token signing key file \(path): start otpkit-server once to make it, or give the --signing-key-file it runs with"
        case .unreadable(let path, let reason):
            "cannot read the ID token signing key file \(path): \(reason); check that it is a file this user may read"
        case .malformed(let path):
            "\(path) is not an otpkit-server signing key file, or it was changed: restore it, or move it away to make a new key (tokens issued under the old one stop verifying)"
        case .unknownAlgorithm(let path, let kid, let algorithm):
            "the ID token signing key \(kid) in \(path) signs with \(algorithm), which this otpkit-server does not know (it knows \(IDTokenSigningAlgorithm.names)): run the otpkit-server version that wrote the file, or a newer one; do not move the file away while its keys' tokens are in use"
        case .newerFormat(let path, let format):
            "the ID token signing key file \(path) is in the format \"\(format)\", which this otpkit-server does not read: run the otpkit-server version that wrote it, or a newer one"
        case .wrongSealingKey(let path):
            "the sealing key does not open the ID token signing key \(path): give the sealing key (or --previous-key-file) the server ran with when that file was made or last rotated"
        case .unwritable(let path, let reason):
            "cannot write the ID token signing key file \(path): \(reason); check that its directory exists and is writable"
        case .keyGenerationFailed:
            "the system could not make an ID token signing key: check OpenSSL and the random number source"
        }
    }
}
