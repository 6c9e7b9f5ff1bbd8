/// The cost of a password hash: scrypt's N = 2^`logN`, block size `r`, parallelism `p`.
///
/// Stored inside every hash, so raising them later affects new hashes, and an old hash is
/// re-hashed at the new cost on its owner's next successful sign-in.
public struct PasswordHashParameters: Hashable, Sendable, CustomStringConvertible {
    /// log2 of scrypt's N.
    public let logN: Int
    /// scrypt's block size.
    public let r: Int
    /// scrypt's parallelism.
    public let p: Int

    /// The accepted ranges, for hashes being created and hashes read from a store alike: a stored
    /// hash outside them is refused before any memory is reserved for it.
    public static let logNRange = 10...20
    /// See ``logNRange``.
    public static let rRange = 1...32
    /// See ``logNRange``.
    public static let pRange = 1...16

    /// N = 2^16, r = 8, p = 1: 64 MiB and about 0.2 s per hash on one core here. Twice the memory
    /// of Firebase's own project default (N = 2^14) and of Aegis's vault slots; below OWASP's
    /// suggested 2^17, which would reserve 128 MiB per concurrent sign-in on a server (raise it
    /// where the host has the memory: existing hashes follow on the next sign-in).
    public static let `default` = PasswordHashParameters(validated: 16, 8, 1)

    /// Parameters within the accepted ranges.
    /// - Throws: ``PasswordHashError/parametersOutOfRange(logN:r:p:)`` otherwise.
    public init(logN: Int, r: Int, p: Int) throws(PasswordHashError) {
        guard Self.logNRange.contains(logN), Self.rRange.contains(r), Self.pRange.contains(p) else {
            throw .parametersOutOfRange(logN: logN, r: r, p: p)
        }
        self.init(validated: logN, r, p)
    }

    private init(validated logN: Int, _ r: Int, _ p: Int) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// `ln=16,r=8,p=1`, as the hash string writes them.
    public var description: String { "ln=\(logN),r=\(r),p=\(p)" }
}
