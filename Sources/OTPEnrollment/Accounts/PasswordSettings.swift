/// How email-and-password accounts work: the hash's cost, what a password must be, and what a
/// failed sign-in tells the caller.
public struct PasswordSettings: Sendable, Hashable {
    /// The cost of new password hashes; a hash made at other parameters is re-hashed at these on
    /// its owner's next successful sign-in.
    public var hashParameters: PasswordHashParameters
    /// The fewest characters a password may have (Firebase's 6 by default); shorter ones are
    /// refused with `weakPassword`.
    public var minimumLength: Int
    /// On (the default, as in new Firebase projects), an unknown email and a wrong password are
    /// one error, `invalidCredential` (`INVALID_LOGIN_CREDENTIALS`), and take the same time, so a
    /// sign-in form cannot be used to find out which addresses have accounts. Off, they are
    /// `userNotFound` and `wrongPassword`.
    public var emailEnumerationProtection: Bool
    /// Failed password sign-ins (wrong passwords and unknown addresses) allowed from one source
    /// (the client address a host passes as `source`) in ``sourceWindow``; beyond it the source is
    /// refused with `tooManyRequests` until the window ends, whatever account it tries. Success
    /// does not reset it, so one valid account does not let a source guess at the others.
    public var maximumFailuresPerSource: Int
    /// The length in seconds of the fixed windows ``maximumFailuresPerSource`` counts in.
    public var sourceWindow: Int64

    /// Settings.
    public init(
        hashParameters: PasswordHashParameters = .default,
        minimumLength: Int = 6,
        emailEnumerationProtection: Bool = true,
        maximumFailuresPerSource: Int = 100,
        sourceWindow: Int64 = 3600
    ) {
        self.hashParameters = hashParameters
        self.minimumLength = minimumLength
        self.emailEnumerationProtection = emailEnumerationProtection
        self.maximumFailuresPerSource = maximumFailuresPerSource
        self.sourceWindow = sourceWindow
    }
}
